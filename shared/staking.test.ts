import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import {
  findValidator,
  POOL_EVENT,
  POOL_SELECTOR,
  SANDBOX_VALIDATORS,
  stakingContractFor,
  stakingErrorIn,
  validatorsFor,
} from './staking.js';

describe('staking registry', () => {
  it('lists the mainnet presets, none on Sepolia, and the sandbox-only ones on the sandbox', () => {
    expect(validatorsFor('mainnet').map((v) => v.name)).toEqual([
      'Braavos',
      'Ready (prev. Argent)',
    ]);
    expect(validatorsFor('sepolia')).toEqual([]);
    const sandbox = validatorsFor('mainnet', { sandbox: true });
    expect(sandbox.map((v) => v.name)).toEqual([
      'Braavos',
      'Ready (prev. Argent)',
      'Sandbox Alpha',
      'Sandbox Beta',
      'Sandbox Leaving',
    ]);
    for (const v of sandbox) {
      expect(v.staker).toMatch(/^0x[0-9a-f]{64}$/);
      expect(v.pool).toMatch(/^0x[0-9a-f]{64}$/);
    }
    expect(new Set(sandbox.map((v) => v.pool)).size).toBe(sandbox.length);
  });

  it('finds a validator by name, staker or pool address, whatever the spelling', () => {
    const list = validatorsFor('mainnet', { sandbox: true });
    expect(findValidator(list, 'braavos')?.name).toBe('Braavos');
    expect(
      findValidator(list, '0x4B00F97E2D2168B91FE64CEEACE4A41FC274A85BBDD0ADC402C3D0CF9F91BBB')
        ?.name,
    ).toBe('Braavos');
    const alpha = SANDBOX_VALIDATORS[0]!;
    expect(findValidator(list, alpha.pool)?.name).toBe('Sandbox Alpha');
    expect(findValidator(list, 'nobody')).toBeUndefined();
    expect(findValidator(list, '0xzz')).toBeUndefined();
  });

  it('has the mainnet and Sepolia staking contracts', () => {
    expect(stakingContractFor('mainnet')).toBe(
      '0x00ca1702e64c81d9a07b86bd2c540188d92a2c73cf5cc0e508d949015e7e84a7',
    );
    expect(stakingContractFor('sepolia')).toBe(
      '0x03745ab04a431fc02871a139be6b93d9260b0ff3e779ad9c8b377183b23109f1',
    );
  });

  it('derives selectors from the names with starknet.js', () => {
    expect(POOL_SELECTOR.enter_delegation_pool).toBe(
      BigInt(hash.getSelectorFromName('enter_delegation_pool')),
    );
    expect(POOL_EVENT.NewPoolMember).toBe(BigInt(hash.getSelectorFromName('NewPoolMember')));
  });

  it('names the staking error in a revert reason', () => {
    expect(stakingErrorIn("Execution failed. Failure reason: 'STAKER_INACTIVE'.")).toBe(
      'STAKER_INACTIVE',
    );
    expect(stakingErrorIn("Failure reason: 'POOL_MEMBER_DOES_NOT_EXIST'.")).toBe(
      'POOL_MEMBER_DOES_NOT_EXIST',
    );
    expect(stakingErrorIn('something else')).toBeUndefined();
  });
});
