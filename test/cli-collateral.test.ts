/**
 * Collateral on its own through the built bin and the sandbox's Vesu-like pool (docs/commands.md
 * "Lending"): borrow → `sandbox price` drops the collateral → the health factor is low →
 * add-collateral raises it to what is computed by hand → withdraw-collateral of more than held is
 * refused before signing (so are one that would leave it at or below 1 and, without its flag, one
 * below the margin) → withdraw-collateral some → repay all → withdraw-collateral all leaves no
 * collateral. Its own sandbox: the price knob moves the ETH price for every position in it.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cli,
  cliInProcess,
  setSandboxPrice,
  startTwoUsers,
  type TwoUsers,
} from './helpers/cli-sandbox.js';

interface Money {
  token: string;
  amount: string;
  baseUnits: string;
}
interface Borrow {
  pool: string;
  collateral: Money;
  debt: Money;
  healthFactor: string | null;
}
interface Call {
  contractAddress: string;
  entrypoint: string;
  calldata: string[];
}

const E18 = 10n ** 18n;
const USDC = 10n ** 6n;

/**
 * The health factor by hand: collateral value × max LTV / debt value, 4 decimals, rounded down
 * (`collateral` in ETH base units, `ethUsd` whole dollars, `debt` in USDC base units, max LTV 0.8).
 */
function byHand(collateral: bigint, ethUsd: bigint, debt: bigint): string {
  const cv = collateral * ethUsd;
  const dv = (debt * E18) / USDC;
  const hf = (cv * ((8n * E18) / 10n)) / dv;
  const four = hf / 10n ** 14n;
  const text = `${four / 10_000n}.${(four % 10_000n).toString().padStart(4, '0')}`;
  return text.replace(/\.?0+$/, '');
}

describe('collateral on its own through the sandbox (whole processes)', () => {
  let users: TwoUsers;
  const alice = (args: string[]) => cliInProcess(users.aliceHome, [...args, '--sandbox', '--json']);
  /** alice through the bin itself: add-collateral and withdraw-collateral keep their own process */
  const aliceBin = (args: string[]) => cli(users.aliceHome, [...args, '--sandbox', '--json']);
  const read = async (): Promise<Borrow | undefined> => {
    const r = await alice(['lending']);
    expect(r.code, r.stderr).toBe(0);
    return (r.doc.borrows as Borrow[]).find(
      (b) => b.collateral.token === 'ETH' && b.debt.token === 'USDC',
    );
  };
  const ethBalance = async (): Promise<bigint> => {
    const r = await alice(['balance']);
    const eth = (r.doc.balances as Array<{ symbol: string; baseUnits: string }>).find(
      (b) => b.symbol === 'ETH',
    );
    return BigInt(eth?.baseUnits ?? '0');
  };

  beforeAll(async () => {
    users = await startTwoUsers();
  }, 120_000);
  afterAll(async () => {
    await users?.close();
  });

  it('borrow → price drop → add → refusals → withdraw some → repay all → withdraw all', async () => {
    const borrowed = await alice(['borrow', '700', 'USDC', '--collateral', '0.5', 'ETH', '--yes']);
    expect(borrowed.doc.error, borrowed.stderr).toBeUndefined();
    await setSandboxPrice(users.aliceHome, 'ETH', '2000');
    const low = await read();
    const debt = BigInt(low?.debt.baseUnits ?? '0');
    // 0.5 ETH × $2000 × 0.8 / ~700 ≈ 1.14: below the 1.2 margin
    expect(low?.healthFactor).toBe(byHand(E18 / 2n, 2000n, debt));
    expect(Number(low?.healthFactor)).toBeLessThan(1.2);

    // add 0.25 ETH: approve the pool for exactly 0.25 ETH, then modify_position (debt 0)
    const added = await alice(['add-collateral', '0.25', 'ETH', '--debt', 'USDC', '--yes']);
    expect(added.doc.error, added.stderr).toBeUndefined();
    expect(added.doc).toMatchObject({
      kind: 'add-collateral',
      calls: [{ entrypoint: 'approve' }, { entrypoint: 'modify_position' }],
      transaction: { status: 'SUCCEEDED' },
    });
    const [approve, modify] = added.doc.calls as Call[];
    expect(BigInt(approve?.calldata[0] ?? '0')).toBe(BigInt(modify?.contractAddress ?? '1'));
    expect(approve?.calldata.slice(1).map(BigInt)).toEqual([E18 / 4n, 0n]);
    expect(String(added.doc.headline)).toMatch(/health factor \d+\.\d+ → \d+\.\d+/);
    const raised = await read();
    const debtNow = BigInt(raised?.debt.baseUnits ?? '0');
    expect(raised?.collateral.baseUnits).toBe(((3n * E18) / 4n).toString());
    // 0.75 ETH × $2000 × 0.8 / ~700 ≈ 1.71: raised by the amount, as computed by hand
    expect(raised?.healthFactor).toBe(byHand((3n * E18) / 4n, 2000n, debtNow));
    expect(Number(raised?.healthFactor)).toBeGreaterThan(Number(low?.healthFactor));

    // more than the position holds: refused before signing, with what it holds
    const tooMuch = await alice(['withdraw-collateral', '1', 'ETH', '--debt', 'USDC', '--yes']);
    expect(tooMuch.doc.error).toMatchObject({
      code: 'INVALID_AMOUNT',
      details: { collateral: ((3n * E18) / 4n).toString() },
    });
    // 0.4 ETH left: 640 of borrowing power against ~700, at or below 1
    const under = await alice(['withdraw-collateral', '0.35', 'ETH', '--debt', 'USDC', '--yes']);
    expect(under.doc.error).toMatchObject({ code: 'HEALTH_TOO_LOW' });
    // 0.45 ETH left: ~1.03, below the margin: its acknowledgment first
    const risky = await alice(['withdraw-collateral', '0.3', 'ETH', '--debt', 'USDC', '--yes']);
    expect(risky.doc.error).toMatchObject({
      code: 'ACKNOWLEDGMENT_REQUIRED',
      details: { remedy: ['low-health'] },
    });
    expect((await read())?.collateral.baseUnits).toBe(((3n * E18) / 4n).toString());

    // withdraw 0.1 ETH (0.65 left: ~1.49): one modify_position, no approve; it arrives
    const ethBefore = await ethBalance();
    const some = await alice(['withdraw-collateral', '0.1', 'ETH', '--debt', 'USDC', '--yes']);
    expect(some.doc.error, some.stderr).toBeUndefined();
    expect(some.doc).toMatchObject({
      kind: 'withdraw-collateral',
      calls: [{ entrypoint: 'modify_position' }],
      transaction: { status: 'SUCCEEDED' },
    });
    expect((await ethBalance()) - ethBefore).toBeGreaterThanOrEqual(E18 / 10n);
    const less = await read();
    expect(less?.collateral.baseUnits).toBe(((65n * E18) / 100n).toString());
    expect(less?.healthFactor).toBe(
      byHand((65n * E18) / 100n, 2000n, BigInt(less?.debt.baseUnits ?? '0')),
    );

    // with the debt left, all is refused (nothing against the debt); repay all, then all
    const allWithDebt = await alice([
      'withdraw-collateral',
      'all',
      'ETH',
      '--debt',
      'USDC',
      '--yes',
    ]);
    expect(allWithDebt.doc.error).toMatchObject({ code: 'HEALTH_TOO_LOW' });
    expect(String(allWithDebt.doc.error?.message)).toMatch(
      /still owes [\d.]+ USDC.*repay the debt first, or close the position/,
    );
    // repaying all but one unit leaves dust under the floor: refused, its worth said in words
    const short = BigInt((await read())?.debt.baseUnits ?? '0') - 1n;
    const dusty = await alice([
      'repay',
      `${short / 10n ** 6n}.${(short % 10n ** 6n).toString().padStart(6, '0')}`,
      'USDC',
      '--collateral',
      'ETH',
      '--yes',
    ]);
    expect(dusty.doc.error).toMatchObject({
      code: 'LENDING_LIMIT',
      details: { reason: 'debt-floor' },
    });
    expect(String(dusty.doc.error?.message)).toMatch(/worth less than \$0\.01/);
    const repaid = await alice(['repay', 'all', 'USDC', '--collateral', 'ETH', '--yes']);
    expect(repaid.doc.error, repaid.stderr).toBeUndefined();
    const ethBeforeAll = await ethBalance();
    const all = await alice(['withdraw-collateral', 'all', 'ETH', '--debt', 'USDC', '--yes']);
    expect(all.doc.error, all.stderr).toBeUndefined();
    expect(all.doc).toMatchObject({
      calls: [{ entrypoint: 'modify_position' }],
      transaction: { status: 'SUCCEEDED' },
    });
    expect((await ethBalance()) - ethBeforeAll).toBeGreaterThanOrEqual((65n * E18) / 100n);
    expect((await read())?.collateral.baseUnits ?? '0').toBe('0');

    // the history records both kinds under their own names
    const history = await alice(['history']);
    const kinds = (history.doc.entries as Array<{ kind: string }>).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['add-collateral', 'withdraw-collateral']));
  }, 300_000);

  it("withdraw-collateral past the collateral asset's reserve: LENDING_LIMIT utilization before signing; less passes", async () => {
    const bob = (args: string[]) => cliInProcess(users.bobHome, [...args, '--sandbox', '--json']);
    // alice: 1000 USDT of collateral (the pool's USDT: 20,000 + 1000 in reserve)
    const added = await aliceBin(['add-collateral', '1000', 'USDT', '--debt', 'ETH', '--yes']);
    expect(added.doc.error, added.stderr).toBeUndefined();
    // bob borrows 19,500 of it against 9 ETH at $5000: 19,500 / 21,000 lent (limit 95 %)
    await setSandboxPrice(users.aliceHome, 'ETH', '5000');
    const lent = await bob(['borrow', '19500', 'USDT', '--collateral', '9', 'ETH', '--yes']);
    expect(lent.doc.error, lent.stderr).toBeUndefined();
    try {
      // all of alice's 1000 would leave 500 in reserve: 19,500 / 20,000 = 97.5 %, refused unsigned
      const all = await aliceBin(['withdraw-collateral', 'all', 'USDT', '--debt', 'ETH', '--yes']);
      expect(all.doc.error).toMatchObject({
        code: 'LENDING_LIMIT',
        details: { reason: 'utilization' },
      });
      expect(all.doc.transaction).toBeUndefined();
      // 400 leaves 1100: 19,500 / 20,600 ≈ 94.7 %, under the limit: it goes through
      const some = await aliceBin(['withdraw-collateral', '400', 'USDT', '--debt', 'ETH', '--yes']);
      expect(some.doc.error, some.stderr).toBeUndefined();
      expect(some.doc).toMatchObject({ transaction: { status: 'SUCCEEDED' } });
    } finally {
      // the pool's USDT back for the other tests of this sandbox
      const repaid = await bob(['repay', 'all', 'USDT', '--collateral', 'ETH', '--yes']);
      expect(repaid.doc.error, repaid.stderr).toBeUndefined();
    }
  }, 300_000);

  it("the debt cap bounds the pair's total debt: another borrower's debt counts, refused before signing", async () => {
    const bob = (args: string[]) => cliInProcess(users.bobHome, [...args, '--sandbox', '--json']);
    // WBTC/USDT is capped at 1000 USDT for all borrowers together: bob owes 600 of it (alice signs
    // nothing here: the auth server takes 10 transactions a minute from her, and this file's tests
    // run within one)
    const lent = await bob(['borrow', '600', 'USDT', '--collateral', '0.1 WBTC', '--yes']);
    expect(lent.doc.error, lent.stderr).toBeUndefined();
    try {
      // alice owes nothing: 500 is under the cap for her, over it for the pair
      const over = await alice(['borrow', '500', 'USDT', '--collateral', '0.1 WBTC', '--yes']);
      expect(over.doc.error).toMatchObject({
        code: 'LENDING_LIMIT',
        details: { reason: 'debt-cap', cap: (1000n * USDC).toString() },
      });
      // the room left: the cap less bob's 600 and the interest on it since
      const room = BigInt(String(over.doc.error?.details?.available));
      expect(room).toBeLessThanOrEqual(400n * USDC);
      expect(room).toBeGreaterThan(399n * USDC);
      expect(over.doc.transaction).toBeUndefined();
    } finally {
      // through the bin itself: close-position's spawned run (test/spawned-commands.test.ts)
      const closed = await cli(users.bobHome, [
        'close-position',
        '--collateral',
        'WBTC',
        '--debt',
        'USDT',
        '--yes',
        '--sandbox',
        '--json',
      ]);
      expect(closed.doc.error, closed.stderr).toBeUndefined();
    }
  }, 300_000);

  it('collateral first, borrow later: add-collateral needs no debt', async () => {
    const added = await aliceBin(['add-collateral', '1000', 'STRK', '--debt', 'USDT', '--yes']);
    expect(added.doc.error, added.stderr).toBeUndefined();
    const r = await alice(['lending']);
    const held = (r.doc.borrows as Borrow[]).find(
      (b) => b.collateral.token === 'STRK' && b.debt.token === 'USDT',
    );
    expect(held).toMatchObject({
      collateral: { baseUnits: (1000n * E18).toString() },
      debt: { baseUnits: '0' },
      healthFactor: null,
    });
    const borrowed = await alice(['borrow', '50', 'USDT', '--collateral', 'STRK', '--yes']);
    expect(borrowed.doc.error, borrowed.stderr).toBeUndefined();
  }, 300_000);
});
