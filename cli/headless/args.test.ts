import { describe, expect, it } from 'vitest';
import { isAppError } from '../../shared/errors.js';
import { isNetwork } from '../../shared/tokens.js';
import { parseCommandArgs, parseNetworkFlag } from './args.js';

describe('--network: the one check (shared/tokens.ts isNetwork)', () => {
  it('knows mainnet and sepolia, as written', () => {
    expect(['mainnet', 'sepolia', 'Mainnet', 'sandbox', '', undefined].map(isNetwork)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it('parseNetworkFlag passes a network or nothing, and refuses the rest as USAGE_ERROR', () => {
    expect(parseNetworkFlag(undefined)).toBeUndefined();
    expect(parseNetworkFlag('sepolia')).toBe('sepolia');
    let caught: unknown;
    try {
      parseNetworkFlag(`goerli${'x'.repeat(100)}`);
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught) && caught.code).toBe('USAGE_ERROR');
    expect(isAppError(caught) && caught.message).toBe(
      '--network must be mainnet or sepolia (got "goerlixxxxxxxxxxxxxx")',
    );
  });
});

describe('a negative number after a flag that takes a value is its value', () => {
  it('reads --collateral -1 ETH as the value "-1" (its own check refuses it), not Node’s error', () => {
    const parsed = parseCommandArgs(['100', 'USDC', '--collateral', '-1', 'ETH'], {
      collateral: { type: 'string' },
    });
    expect(parsed.values.collateral).toBe('-1');
    expect(parsed.positionals).toEqual(['100', 'USDC', 'ETH']);
    const quoted = parseCommandArgs(['--supply', '-1 USDC'], { supply: { type: 'string' } });
    expect(quoted.values.supply).toBe('-1 USDC');
  });
});
