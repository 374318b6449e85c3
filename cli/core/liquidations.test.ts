/**
 * The LiquidatePosition event as the client reads it (cli/core/liquidations.ts; docs/commands.md
 * "lending"): the event's shape is outside data — one of another shape is skipped, never trusted —
 * and the amounts are exact; a read pages through the pool's events and reads each pair's position
 * once.
 */
import { describe, expect, it } from 'vitest';
import { feltHex } from '../../shared/felt.js';
import { findToken } from '../../shared/tokens.js';
import { i257Felts, VESU_LIQUIDATE_POSITION_EVENT, vesuFor } from '../../shared/vesu.js';
import type { ChainReader } from './chain/account.js';
import {
  decodeLiquidatePosition,
  type Liquidation,
  liquidationWords,
  readLiquidations,
} from './liquidations.js';

const ETH = findToken('mainnet', 'ETH')!;
const USDC = findToken('mainnet', 'USDC')!;
const USER = `0x${'a1'.repeat(32)}`;
const LIQUIDATOR = `0x${'b2'.repeat(32)}`;
const POOL = vesuFor('mainnet')!.pools[0]!;
const h = (v: bigint): string => feltHex(v);

/** An event's keys and data, as the pool emits it. */
function event(o: {
  collateralDelta: bigint;
  debtDelta: bigint;
  badDebt?: bigint;
  collateral?: string;
  selector?: bigint;
}): { keys: string[]; data: string[] } {
  const bad = o.badDebt ?? 0n;
  return {
    keys: [
      h(o.selector ?? VESU_LIQUIDATE_POSITION_EVENT),
      o.collateral ?? ETH.address,
      USDC.address,
      USER,
      LIQUIDATOR,
    ],
    data: [
      ...i257Felts(o.collateralDelta),
      ...i257Felts(-5n),
      ...i257Felts(o.debtDelta),
      ...i257Felts(-7n),
      bad & ((1n << 128n) - 1n),
      bad >> 128n,
    ].map(h),
  };
}

describe('decodeLiquidatePosition', () => {
  it('reads the exact amounts: negative deltas, a u256 bad debt across both halves', () => {
    const seized = 1_234_567_890_123_456_789n;
    const bad = (3n << 128n) + 17n;
    const e = event({ collateralDelta: -seized, debtDelta: -1_000_000_000n, badDebt: bad });
    expect(decodeLiquidatePosition(e.keys, e.data)).toEqual({
      collateral: BigInt(ETH.address),
      debt: BigInt(USDC.address),
      user: BigInt(USER),
      liquidator: BigInt(LIQUIDATOR),
      collateralDelta: -seized,
      debtDelta: -1_000_000_000n,
      badDebt: bad,
    });
  });

  it.each([
    ['another event', () => event({ collateralDelta: -1n, debtDelta: -1n, selector: 1n })],
    [
      'a key short',
      () => {
        const e = event({ collateralDelta: -1n, debtDelta: -1n });
        return { keys: e.keys.slice(0, 4), data: e.data };
      },
    ],
    [
      'a felt more',
      () => {
        const e = event({ collateralDelta: -1n, debtDelta: -1n });
        return { keys: e.keys, data: [...e.data, '0x0'] };
      },
    ],
    [
      'a sign that is not 0 or 1',
      () => {
        const e = event({ collateralDelta: -1n, debtDelta: -1n });
        return { keys: e.keys, data: e.data.map((d, i) => (i === 2 ? '0x2' : d)) };
      },
    ],
    [
      'a negative zero in the shares delta',
      () => {
        const e = event({ collateralDelta: -1n, debtDelta: -1n });
        return {
          keys: e.keys,
          data: e.data.map((d, i) => (i >= 3 && i < 6 ? ['0x0', '0x0', '0x1'][i - 3]! : d)),
        };
      },
    ],
    [
      'a bad debt half of 128 bits or more',
      () => {
        const e = event({ collateralDelta: -1n, debtDelta: -1n });
        return { keys: e.keys, data: e.data.map((d, i) => (i === 13 ? h(1n << 128n) : d)) };
      },
    ],
    [
      'a felt that is not a number',
      () => {
        const e = event({ collateralDelta: -1n, debtDelta: -1n });
        return { keys: e.keys, data: e.data.map((d, i) => (i === 0 ? 'zero' : d)) };
      },
    ],
    ['collateral that grew', () => event({ collateralDelta: 1n, debtDelta: -1n })],
    ['debt that grew', () => event({ collateralDelta: -1n, debtDelta: 1n })],
  ])('skips %s', (_what, make) => {
    const e = make();
    expect(decodeLiquidatePosition(e.keys, e.data)).toBeUndefined();
  });
});

describe('readLiquidations (a fake node: pure logic)', () => {
  function reader(pages: Array<Array<{ keys: string[]; data: string[]; hash: bigint }>>) {
    const positionReads: string[][] = [];
    const getEvents = async (request: { continuation_token?: string }) => {
      const at = request.continuation_token === undefined ? 0 : Number(request.continuation_token);
      return {
        events: (pages[at] ?? []).map((e, i) => ({
          keys: e.keys,
          data: e.data,
          transaction_hash: h(e.hash),
          block_number: at * 10 + i,
        })),
        ...(at + 1 < pages.length ? { continuation_token: String(at + 1) } : {}),
      };
    };
    const callContract = async (call: { calldata: string[] }) => {
      positionReads.push(call.calldata);
      // Position (shares, nominal debt), collateral 0.5 ETH, debt 2000 USDC: u256 each
      return ['0x1', '0x0', '0x2', '0x0', h(5n * 10n ** 17n), '0x0', h(2_000_000_000n), '0x0'];
    };
    return {
      positionReads,
      reader: {
        address: USER,
        network: 'mainnet',
        provider: { getEvents, callContract },
      } as unknown as ChainReader,
    };
  }

  it('pages through, skips the malformed and the unlisted, reads each pair once, exact amounts', async () => {
    const ok = event({ collateralDelta: -617_283_950_617_283_950n, debtDelta: -1_000_000_000n });
    const again = event({ collateralDelta: -1n, debtDelta: -2n, badDebt: 3n });
    const unlisted = event({ collateralDelta: -1n, debtDelta: -1n, collateral: h(0x1234n) });
    const malformed = { keys: ok.keys, data: ok.data.slice(1) };
    const { reader: r, positionReads } = reader([
      [
        { ...ok, hash: 1n },
        { ...malformed, hash: 2n },
      ],
      [
        { ...unlisted, hash: 3n },
        { ...again, hash: 4n },
      ],
    ]);
    const found = await readLiquidations(r, POOL);
    expect(found.map((l) => l.transactionHash)).toEqual([h(1n), h(4n)]);
    expect(positionReads).toHaveLength(1);
    const first = found[0] as Liquidation;
    expect(first).toMatchObject({
      pool: POOL.name,
      blockNumber: 0,
      liquidator: h(BigInt(LIQUIDATOR)),
      collateral: {
        token: 'ETH',
        seized: '0.61728395061728395',
        seizedBaseUnits: '617283950617283950',
      },
      debt: { token: 'USDC', repaid: '1000', repaidBaseUnits: '1000000000', badDebtBaseUnits: '0' },
      left: { collateral: '0.5', collateralBaseUnits: '500000000000000000', debt: '2000' },
    });
    expect(found[1]?.debt).toMatchObject({ badDebt: '0.000003', badDebtBaseUnits: '3' });
    expect(liquidationWords(found[1] as Liquidation)).toBe(
      `liquidated: 0.000000000000000001 ETH of collateral seized, 0.000002 USDC of debt repaid (bad debt 0.000003 USDC); left 0.5 ETH of collateral, 2000 USDC of debt (${h(4n)})`,
    );
  });
});
