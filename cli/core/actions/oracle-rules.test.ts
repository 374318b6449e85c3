import { describe, expect, it } from 'vitest';
import { decodePragmaResponse, encodePragmaResponse } from '../../../shared/pragma.js';
import { resolveToken } from '../../../shared/tokens.js';
import { codeOf } from '../../../test/helpers/failure.js';
import { judgePragma, ORACLE_MAX_AGE_S, type OracleQuote } from '../oracle.js';
import {
  checkPoolPrices,
  checkSwapsAgainstOracle,
  judgeSwap,
  oracleAcknowledgment,
} from './oracle-rules.js';
import type { SwapQuote } from './legs/swap.js';

const ETH = resolveToken('mainnet', 'ETH');
const USDC = resolveToken('mainnet', 'USDC');
const E18 = 10n ** 18n;
const NOW = 1_800_000_000;
const priced = (token: typeof ETH, usd: bigint): OracleQuote => ({
  ok: true,
  token,
  usd,
  lastUpdated: NOW,
});
const PRICES = [priced(ETH, 3000n * E18), priced(USDC, E18)];
/** 1 ETH for a minimum of `usdc` whole USDC (expected: `expected`, else the minimum) */
const swap = (usdc: bigint, expected = usdc): SwapQuote =>
  ({
    from: ETH,
    to: USDC,
    amountIn: E18,
    minimumReceived: usdc * 10n ** 6n,
    expectedOutput: expected * 10n ** 6n,
  }) as SwapQuote;

describe("Pragma's median, judged", () => {
  it('8 decimals read as 18; a median older than the bound is stale; no sources or price 0 is no price', () => {
    const median = { price: 300_000_000_000n, decimals: 8, lastUpdated: BigInt(NOW), sources: 3 };
    expect(judgePragma(ETH, median, NOW)).toMatchObject({ ok: true, usd: 3000n * E18 });
    expect(judgePragma(ETH, median, NOW + ORACLE_MAX_AGE_S)).toMatchObject({ ok: true });
    expect(judgePragma(ETH, median, NOW + ORACLE_MAX_AGE_S + 1)).toMatchObject({
      ok: false,
      why: 'stale',
    });
    expect(judgePragma(ETH, { ...median, sources: 0 }, NOW)).toMatchObject({ why: 'no-price' });
    expect(judgePragma(ETH, { ...median, price: 0n }, NOW)).toMatchObject({ why: 'no-price' });
    expect(judgePragma(ETH, undefined, NOW)).toMatchObject({ why: 'unreadable' });
  });

  it('the response decodes from its felts (Some and None expirations); anything else is garbled', () => {
    const p = { price: 5n, decimals: 8, lastUpdated: 7n, sources: 2 };
    expect(decodePragmaResponse(encodePragmaResponse(p))).toEqual(p);
    expect(decodePragmaResponse([5n, 8n, 7n, 2n, 1n])).toEqual(p);
    expect(decodePragmaResponse([5n, 8n, 7n, 2n])).toBeUndefined();
    expect(decodePragmaResponse([5n, 8n, 7n, 2n, 2n])).toBeUndefined();
    expect(decodePragmaResponse([1n << 128n, 8n, 7n, 2n, 1n])).toBeUndefined();
    expect(decodePragmaResponse([5n, 8n, 7n, 2n, 0n, 0n, 0n])).toBeUndefined();
  });
});

describe('a swap held against the oracle', () => {
  it('expected at 90 % or more: nothing asked; below 90 %: high-impact; a minimum below 50 %: refused', async () => {
    expect(judgeSwap(swap(2700n), PRICES)).toMatchObject({ priced: true, bps: 9000n });
    // a wide slippage lowers the minimum, not the expected output: the oracle asks nothing
    expect(oracleAcknowledgment(swap(2400n, 3000n), 0, PRICES)).toBeUndefined();
    expect(oracleAcknowledgment(swap(2700n), 0, PRICES)).toBeUndefined();
    expect(oracleAcknowledgment(swap(2699n), 0, PRICES)).toMatchObject({
      id: 'high-impact',
      details: { reason: 'below-oracle' },
    });
    const at = (usdc: bigint) =>
      codeOf(
        Promise.resolve().then(() => checkSwapsAgainstOracle([{ executing: swap(usdc) }], PRICES)),
      );
    expect(await at(1500n)).toBe('ok');
    expect(await at(1499n)).toBe('SWAP_BELOW_ORACLE');
    // the case: 2 ETH for a minimum of 0.0059 USDC
    expect(await at(0n)).toBe('SWAP_BELOW_ORACLE');
  });

  it('a token the oracle cannot price: the person must acknowledge it (high-impact, oracle-unpriced)', () => {
    const stale: OracleQuote[] = [{ ok: false, token: ETH, why: 'stale', ageS: 9000 }, PRICES[1]!];
    expect(oracleAcknowledgment(swap(3000n), 0, stale)).toMatchObject({
      id: 'high-impact',
      details: { reason: 'oracle-unpriced' },
    });
    expect(() => checkSwapsAgainstOracle([{ executing: swap(0n) }], stale)).not.toThrow();
  });
});

describe("a lending pool's prices held against the oracle", () => {
  const pool = (eth: bigint) => [
    { token: ETH, poolUsd: eth, valid: true },
    { token: USDC, poolUsd: E18, valid: true },
  ];
  it('within 2 % they are used; further apart (a doubled collateral price) refused', async () => {
    const run = (eth: bigint, prices = PRICES) =>
      codeOf(Promise.resolve().then(() => checkPoolPrices(pool(eth), prices)));
    expect(await run(3060n * E18)).toBe('ok');
    expect(await run(2940n * E18)).toBe('ok');
    expect(await run(3061n * E18)).toBe('POOL_PRICE_DISAGREES');
    expect(await run(6000n * E18)).toBe('POOL_PRICE_DISAGREES');
    expect(await run(3000n * E18, [PRICES[0]!])).toBe('ORACLE_PRICE_UNAVAILABLE');
  });
});
