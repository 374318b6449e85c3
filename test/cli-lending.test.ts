/**
 * Lending on the sandbox's Vesu-like pool through the built bin (docs/commands.md "Lending"):
 * supply → `sandbox advance` → worth more → withdraw all leaves no share; borrow against
 * collateral → the health factor as computed by hand from the pool's prices and max LTV →
 * `sandbox price` drops the collateral → `lending` shows the lower health factor → a borrow that
 * would leave it at or below 1 refused before signing, one below the margin needs its flag →
 * repay all leaves no debt (no dust) → close returns the collateral (Sepolia's pool:
 * test/sandbox-sepolia.test.ts).
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess), and so
 * does the sandbox, the set-up (docs/decisions.md "Bin runs in-process where the result is the
 * subject", "Sandboxes in the worker where they are the set-up"). The PLAN_CHANGED test holds the
 * chain's requests after planning's to move the clock between them (docs/decisions.md "A test
 * acts between two requests by holding them, not by racing a delay").
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cli,
  cliInProcess,
  setSandboxPrice,
  signIn,
  startTwoUsers,
  type TwoUsers,
} from './helpers/cli-sandbox.js';
import { healthByHand as byHand } from './helpers/health.js';
import { cleanEnv, spawnBin, tempHome } from './helpers/process.js';

interface Money {
  token: string;
  amount: string;
  baseUnits: string;
}
interface Supplied extends Money {
  pool: string;
  valueUsd: string | null;
}
interface Borrow {
  pool: string;
  collateral: Money;
  debt: Money;
  healthFactor: string | null;
  maxLtv: string;
  liquidationPrice: string | null;
}

const E18 = 10n ** 18n;
const USDC = 10n ** 6n;

describe('lending through the sandbox (whole processes)', () => {
  let users: TwoUsers;
  const as = (home: () => string) => (args: string[]) =>
    cliInProcess(home(), [...args, '--sandbox', '--json']);
  const alice = as(() => users.aliceHome);
  const bob = as(() => users.bobHome);
  /** bob through the bin itself: supply and withdraw keep a test of their own process */
  const bobBin = (args: string[]) => cli(users.bobHome, [...args, '--sandbox', '--json']);
  const lending = async (who: typeof bobBin) => {
    const r = await who(['lending']);
    expect(r.code, r.stderr).toBe(0);
    return r.doc as unknown as { supplied: Supplied[]; borrows: Borrow[] };
  };

  beforeAll(async () => {
    users = await startTwoUsers();
  }, 120_000);
  afterAll(async () => {
    await users?.close();
  });

  it(
    'headless: a repay all whose debt grew between the plan and the signature is not signed — exit 5, PLAN_CHANGED with the new plan',
    { timeout: 240_000 },
    async () => {
      // a user of its own: its debt is only what this test borrows
      const erin = tempHome();
      copyFileSync(join(users.aliceHome, 'sandbox.json'), join(erin.dir, 'sandbox.json'));
      await signIn(erin.dir, 'erin@example.com');
      const as = (args: string[]) => cli(erin.dir, [...args, '--sandbox', '--json']);
      // set-up and the read after, in this worker; the plans whose requests are counted, and the
      // run refused, are the bin's own processes
      const inWorker = (args: string[]) => cliInProcess(erin.dir, [...args, '--sandbox', '--json']);
      const borrowed = await inWorker(['borrow', '100', 'USDC', '--collateral', '1 ETH', '--yes']);
      expect(borrowed.doc.error, borrowed.stderr).toBeUndefined();
      const chain = users.urls.chainUrl;
      const requests = async (): Promise<number> =>
        ((await (await fetch(`${chain}/sandbox/faults`)).json()) as { requests: number }).requests;
      const knob = (path: string, body: unknown) =>
        fetch(`${chain}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      // what planning asks of the chain: the same plan, shown and not signed
      let before = await requests();
      const shown = await as(['repay', 'all', 'USDC', '--collateral', 'ETH']);
      expect(shown.doc.error?.code).toBe('CONFIRMATION_REQUIRED');
      const planning = (await requests()) - before;
      // the signing run's first `planning` chain requests pass; the next one, the first of the
      // round before signing, waits unhandled while the clock moves (30 days of interest), then
      // goes on: whatever the machine's speed, the reads right before signing see the new debt
      const faults = async (): Promise<{ requests: number; held: number }> =>
        (await (await fetch(`${chain}/sandbox/faults`)).json()) as {
          requests: number;
          held: number;
        };
      expect((await knob('/sandbox/faults', { holdAfter: planning })).status).toBe(200);
      try {
        before = await requests();
        const proc = spawnBin(
          ['repay', 'all', 'USDC', '--collateral', 'ETH', '--yes', '--sandbox', '--json'],
          cleanEnv({ FINANCE_TUI_HOME: erin.dir }),
        );
        await vi.waitFor(
          // planning's requests answered: the next one is the first of the round before signing
          async () => {
            const now = await faults();
            expect(now.held).toBeGreaterThan(0);
            expect(now.requests - before).toBeGreaterThan(planning);
          },
          { timeout: 120_000, interval: 50 },
        );
        expect((await knob('/sandbox/chain/advance', { seconds: 30 * 86_400 })).status).toBe(200);
        expect((await knob('/sandbox/faults', { releaseHeld: true })).status).toBe(200);
        const { code } = await proc.exited;
        const doc = JSON.parse(proc.stdout()) as {
          error: {
            code: string;
            details: { changes: string[]; plan: { kind: string; spend: unknown[] } };
          };
        };
        expect(doc.error.code, JSON.stringify(doc.error).slice(0, 1_500)).toBe('PLAN_CHANGED');
        expect(code, proc.stderr()).toBe(5);
        expect(doc.error.details.changes.join('\n')).toMatch(
          /the USDC debt grew to about 100\.\d+ USDC with interest/,
        );
        // the new plan, to review: a repay all again, its bound taken from the debt now
        expect(doc.error.details.plan.kind).toBe('repay');
        // nothing was signed: the debt is still there
        const owed = (await lending(inWorker)).borrows.find(
          (b) => b.collateral.token === 'ETH' && b.debt.token === 'USDC',
        );
        expect(BigInt(owed?.debt.baseUnits ?? '0')).toBeGreaterThan(100n * USDC);
      } finally {
        await knob('/sandbox/faults', { releaseHeld: true });
        erin.cleanup();
      }
    },
  );

  it('supply → advance → the supply has grown → withdraw all leaves no share', async () => {
    // someone borrows USDT, so suppliers earn (set-up: in this worker)
    const borrow = await bob(['borrow', '1000', 'USDT', '--collateral', '2 ETH', '--yes']);
    expect(borrow.doc.error, borrow.stderr).toBeUndefined();

    const supply = await bobBin(['supply', '1000', 'USDT', '--yes']);
    expect(supply.doc.error, supply.stderr).toBeUndefined();
    expect(supply.doc).toMatchObject({
      kind: 'supply',
      calls: [{ entrypoint: 'approve' }, { entrypoint: 'deposit' }],
      transaction: { status: 'SUCCEEDED' },
    });
    // the reads and the clock's move in this worker; supply and withdraw are the bin's
    const first = (await lending(bob)).supplied.find((s) => s.token === 'USDT');
    expect(BigInt(first?.baseUnits ?? '0')).toBeGreaterThanOrEqual(1000n * USDC - 1n);

    const advanced = await cliInProcess(users.bobHome, ['sandbox', 'advance', '30d', '--json']);
    expect(advanced.code, advanced.stderr).toBe(0);
    const grown = (await lending(bob)).supplied.find((s) => s.token === 'USDT');
    expect(BigInt(grown?.baseUnits ?? '0')).toBeGreaterThan(BigInt(first?.baseUnits ?? '0'));

    const out = await bobBin(['withdraw', 'all', 'USDT', '--yes']);
    expect(out.doc.error, out.stderr).toBeUndefined();
    expect(out.doc).toMatchObject({ calls: [{ entrypoint: 'redeem' }] });
    const received = (out.doc.transaction as { received: Array<{ baseUnits: string }> }).received;
    expect(BigInt(received[0]?.baseUnits ?? '0')).toBeGreaterThanOrEqual(
      BigInt(grown?.baseUnits ?? '0'),
    );
    expect((await lending(bob)).supplied.filter((s) => s.token === 'USDT')).toEqual([]);
  }, 300_000);

  it("lending lists each asset the pool lists with its supply and borrow rates, from the pool's rate views", async () => {
    // USDT is borrowed here, whichever test ran first (the order is shuffled), so its suppliers earn
    const borrow = await bob(['borrow', '1000', 'USDT', '--collateral', '2 ETH', '--yes']);
    expect(borrow.doc.error, borrow.stderr).toBeUndefined();
    const r = await bob(['lending']);
    expect(r.code, r.stderr).toBe(0);
    const markets = r.doc.markets as Array<Record<string, string>>;
    // the sandbox lists ETH, WBTC, STRK, USDC and USDT (docs/sandbox-chain.md "Lending")
    expect(markets.map((m) => m.token).sort()).toEqual(['ETH', 'STRK', 'USDC', 'USDT', 'WBTC']);
    const hundredths = (words: string | undefined): bigint => {
      expect(words).toMatch(/^[0-9]+\.[0-9]{2}$/);
      return BigInt((words as string).replace('.', ''));
    };
    for (const m of markets) {
      // the sandbox's model is flat at 8 % a year (rounded down per second): APR 7.99…, APY 8.32…
      expect(m).toMatchObject({ pool: 'Prime', borrowApr: '7.99', borrowApy: '8.32' });
      // suppliers earn the borrow rate × utilisation (no fee on the sandbox), to within rounding
      const expected = (799n * hundredths(m.utilization)) / 10_000n;
      const supply = hundredths(m.supplyApr);
      expect(supply >= expected - 1n && supply <= expected + 1n, JSON.stringify(m)).toBe(true);
      expect(hundredths(m.supplyApy)).toBeGreaterThanOrEqual(supply);
    }
    // USDT is borrowed (above): its suppliers earn something
    expect(hundredths(markets.find((m) => m.token === 'USDT')?.supplyApr)).toBeGreaterThan(0n);
    const human = await cliInProcess(users.bobHome, ['lending', '--sandbox']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(
      'Rates now (supply earns / borrow costs; APY, APR in brackets):',
    );
    expect(human.stdout).toMatch(
      / {4}USDT: supply [0-9]+\.[0-9]{2} % \([0-9]+\.[0-9]{2} %\), borrow 8\.32 % \(7\.99 %\), utilisation [0-9]+\.[0-9]{2} %/,
    );
  }, 120_000);

  it('borrow → health by hand → price drop → lower health → refusals → repay all → close', async () => {
    const borrowed = await alice(['borrow', '1500', 'USDC', '--collateral', '1', 'ETH', '--yes']);
    expect(borrowed.doc.error, borrowed.stderr).toBeUndefined();
    expect(borrowed.doc).toMatchObject({
      kind: 'borrow',
      calls: [{ entrypoint: 'approve' }, { entrypoint: 'modify_position' }],
      transaction: { status: 'SUCCEEDED' },
    });
    const read = async (): Promise<Borrow | undefined> =>
      (await lending(alice)).borrows.find(
        (b) => b.collateral.token === 'ETH' && b.debt.token === 'USDC',
      );
    const before = await read();
    expect(before).toMatchObject({
      pool: 'Prime',
      maxLtv: '0.8',
      collateral: { baseUnits: E18.toString() },
    });
    const debt = BigInt(before?.debt.baseUnits ?? '0');
    expect(debt).toBeGreaterThanOrEqual(1500n * USDC);
    expect(before?.healthFactor).toBe(byHand(1n, 3000n, debt, 8n));

    await setSandboxPrice(users.aliceHome, 'ETH', '2000');
    const lower = await read();
    const debtNow = BigInt(lower?.debt.baseUnits ?? '0');
    expect(lower?.healthFactor).toBe(byHand(1n, 2000n, debtNow, 8n));
    expect(Number(lower?.healthFactor)).toBeLessThan(Number(before?.healthFactor));
    // a person reading the positions is warned, with the commands that raise it
    const shownLow = await cliInProcess(users.aliceHome, ['lending', '--sandbox']);
    expect(shownLow.stdout).toMatch(/! health factor [\d.]+ is below 1\.2: close to liquidation/);
    expect(shownLow.stdout).toContain('finance-tui repay AMOUNT USDC --collateral ETH --sandbox');
    const folio = await cliInProcess(users.aliceHome, ['portfolio', '--sandbox']);
    expect(folio.stdout).toMatch(/health factor [\d.]+ \(below 1\.2: close to liquidation\)/);

    // 1600 of borrowing power against 1500 + 200: at or below 1, refused before signing
    const over = await alice(['borrow', '200', 'USDC', '--collateral', 'ETH', '--yes']);
    expect(over.doc.error).toMatchObject({ code: 'HEALTH_TOO_LOW' });
    // 1600 / 1550: above 1, below the 1.2 margin: its acknowledgment first
    const low = await alice(['borrow', '50', 'USDC', '--collateral', 'ETH', '--yes']);
    expect(low.doc.error).toMatchObject({
      code: 'ACKNOWLEDGMENT_REQUIRED',
      details: { remedy: ['low-health'] },
    });
    // a person is told the remedy in words; with it, reads the plan (health factor before → after)
    const words = await cliInProcess(users.aliceHome, [
      'borrow',
      '50',
      'USDC',
      '--collateral',
      'ETH',
      '--sandbox',
    ]);
    expect(words.stderr).toMatch(/health factor at \d+(\.\d+)?[\s\S]*--accept-low-health/);
    const shown = await cliInProcess(users.aliceHome, [
      'borrow',
      '50',
      'USDC',
      '--collateral',
      'ETH',
      '--accept-low-health',
      '--sandbox',
    ]);
    expect(shown.stdout).toMatch(/health factor \d+(\.\d+)? → \d+(\.\d+)?/);
    expect(shown.stderr).toMatch(/--yes/);
    // nothing was borrowed (the debt moved by seconds of interest only)
    expect(BigInt((await read())?.debt.baseUnits ?? '0') - debtNow).toBeLessThan(USDC);

    const repaid = await alice(['repay', 'all', 'USDC', '--collateral', 'ETH', '--yes']);
    expect(repaid.doc.error, repaid.stderr).toBeUndefined();
    expect(repaid.doc).toMatchObject({
      calls: [
        { entrypoint: 'approve' },
        { entrypoint: 'modify_position' },
        { entrypoint: 'approve' },
      ],
      transaction: { status: 'SUCCEEDED' },
    });
    const cleared = await read();
    expect(cleared).toMatchObject({ debt: { baseUnits: '0' }, healthFactor: null });

    const balance = async (): Promise<bigint> => {
      const r = await alice(['balance']);
      const eth = (r.doc.balances as Array<{ symbol: string; baseUnits: string }>).find(
        (b) => b.symbol === 'ETH',
      );
      return BigInt(eth?.baseUnits ?? '0');
    };
    const ethBefore = await balance();
    const closed = await alice([
      'close-position',
      '--collateral',
      'ETH',
      '--debt',
      'USDC',
      '--yes',
    ]);
    expect(closed.doc.error, closed.stderr).toBeUndefined();
    const ethAfter = await balance();
    // the whole collateral back (the sandbox's gas is sponsored or paid in STRK)
    expect(ethAfter - ethBefore).toBeGreaterThanOrEqual(E18);
    expect(await read()).toBeUndefined();
  }, 300_000);

  it('repay all with the debt in hand but not the interest margin: repaid, no dust; history says what it took', async () => {
    // a third user, whose USDT is only what the test leaves them
    const carol = tempHome();
    try {
      copyFileSync(join(users.aliceHome, 'sandbox.json'), join(carol.dir, 'sandbox.json'));
      await signIn(carol.dir, 'carol@example.com');
      const as = (args: string[]) => cliInProcess(carol.dir, [...args, '--sandbox', '--json']);
      const borrowed = await as([
        'borrow',
        '1000',
        'USDT',
        '--collateral',
        '10000',
        'STRK',
        '--yes',
      ]);
      expect(borrowed.doc.error, borrowed.stderr).toBeUndefined();
      // keep 1000.5 USDT: the debt (1000 and seconds of interest) but not its 0.1 % margin
      const held = 1000n * USDC + USDC / 2n;
      const start = (await as(['balance', 'USDT'])).doc.balances as Array<{ baseUnits: string }>;
      const away = BigInt(start[0]?.baseUnits ?? '0') - held;
      const sent = await as([
        'send',
        `${away / USDC}.${(away % USDC).toString().padStart(6, '0')}`,
        'USDT',
        users.bobAddress,
        '--yes',
      ]);
      expect(sent.doc.error, sent.stderr).toBeUndefined();

      const repaid = await as(['repay', 'all', 'USDT', '--collateral', 'STRK', '--yes']);
      expect(repaid.doc.error, repaid.stderr).toBeUndefined();
      expect(repaid.doc).toMatchObject({ transaction: { status: 'SUCCEEDED' } });
      // the approve was what is held, not more
      const approve = (repaid.doc.calls as Array<{ calldata: string[] }>)[0];
      expect(BigInt(approve?.calldata[1] ?? '0')).toBe(held);
      // the history records what the repayment took (the receipt), not the approve's bound
      const took = (
        (repaid.doc.transaction as { balanceChanges: Array<{ symbol: string; baseUnits: string }> })
          .balanceChanges ?? []
      ).find((c) => c.symbol === 'USDT');
      expect(BigInt(took?.baseUnits ?? '0')).toBeLessThan(-(1000n * USDC) + 1n);
      const history = (await cliInProcess(carol.dir, ['history', '--offline', '--json'])).doc as {
        entries: Array<{ kind: string; amounts: Array<{ direction: string; baseUnits: string }> }>;
      };
      const entry = history.entries.find((e) => e.kind === 'repay');
      expect(entry?.amounts.find((a) => a.direction === 'out')?.baseUnits).toBe(
        (-BigInt(took?.baseUnits ?? '0')).toString(),
      );
      const after = (await as(['lending'])).doc as unknown as { borrows: Borrow[] };
      const position = after.borrows.find(
        (b) => b.collateral.token === 'STRK' && b.debt.token === 'USDT',
      );
      expect(position?.debt.baseUnits).toBe('0');
    } finally {
      carol.cleanup();
    }
  }, 120_000);

  it('the review without --yes says what is consented to: a borrow what arrives, the debt and health after; repay all and close "at most" the bound, the debt expected', async () => {
    // a user of its own: its debt is only what this test borrows
    const dave = tempHome();
    try {
      copyFileSync(join(users.aliceHome, 'sandbox.json'), join(dave.dir, 'sandbox.json'));
      await signIn(dave.dir, 'dave@example.com');
      const human = (args: string[]) => cliInProcess(dave.dir, [...args, '--sandbox']);
      const borrowed = await cliInProcess(dave.dir, [
        ...['borrow', '100', 'USDC', '--collateral', '1', 'ETH', '--yes'],
        ...['--sandbox', '--json'],
      ]);
      expect(borrowed.doc.error, borrowed.stderr).toBeUndefined();

      const borrow = await human(['borrow', '50', 'USDC', '--collateral', '0.5', 'ETH']);
      expect(borrow.code).not.toBe(0);
      const review = borrow.stdout + borrow.stderr;
      expect(review).toMatch(/leaves the wallet: 0\.5 ETH/);
      expect(review).toContain('arrives in the wallet: 50 USDC (borrowed)');
      // the debt as read (100 and seconds of interest) + 50; health factor before → after
      expect(review).toMatch(
        /position after: owes 150(\.\d+)? USDC, 1\.5 ETH collateral; health factor \d[\d.]* → \d/,
      );

      for (const args of [
        ['repay', 'all', 'USDC', '--collateral', 'ETH'],
        ['close-position', '--collateral', 'ETH', '--debt', 'USDC'],
      ]) {
        const r = await human(args);
        expect(r.code).not.toBe(0);
        const text = r.stdout + r.stderr;
        const leaves =
          /leaves the wallet: at most (\d+\.\d+) USDC \(about (\d+(?:\.\d+)?) USDC: the debt as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, plus the interest until it runs\)/.exec(
            text,
          );
        expect(leaves, text).not.toBeNull();
        const [bound, debt] = [Number(leaves?.[1]), Number(leaves?.[2])];
        expect(bound).toBeGreaterThan(debt);
        expect(debt).toBeGreaterThanOrEqual(100);
        expect(text).toMatch(/position after: owes nothing, /);
      }
      const close = await human(['close-position', '--collateral', 'ETH', '--debt', 'USDC']);
      expect(close.stdout + close.stderr).toContain(
        'arrives in the wallet: at least 1 ETH (collateral withdrawn)',
      );
    } finally {
      dave.cleanup();
    }
  }, 120_000);

  it('a batch of supply + stake + send is one transaction with one hash', async () => {
    const r = await alice([
      'batch',
      '--supply',
      '100 USDT',
      '--stake',
      '10 STRK>Sandbox Alpha',
      '--send',
      `1 USDC>${users.bobAddress}`,
      '--yes',
    ]);
    expect(r.doc.error, r.stderr).toBeUndefined();
    expect(r.doc).toMatchObject({
      kind: 'batch',
      calls: [
        { entrypoint: 'transfer' },
        { entrypoint: 'approve' },
        { entrypoint: 'enter_delegation_pool' },
        { entrypoint: 'approve' },
        { entrypoint: 'deposit' },
      ],
      transaction: { status: 'SUCCEEDED' },
    });
    const hash = (r.doc.transaction as { hash: string }).hash;
    expect(hash).toMatch(/^0x[0-9a-f]+$/);
    const history = await alice(['history']);
    const entries = (history.doc.entries as Array<{ hash: string; kind: string }>).filter(
      (e) => e.hash === hash,
    );
    expect(entries).toEqual([expect.objectContaining({ kind: 'batch' })]);
    expect((await lending(alice)).supplied).toEqual(
      expect.arrayContaining([expect.objectContaining({ token: 'USDT', pool: 'Prime' })]),
    );
    const staking = await alice(['staking']);
    expect(staking.doc.positions).toEqual(
      expect.arrayContaining([expect.objectContaining({ validator: 'Sandbox Alpha' })]),
    );
  }, 300_000);

  it('portfolio --json: positions each a line, debt negative with its health factor, net = the sum of the lines', async () => {
    const supply = await alice(['supply', '50', 'USDC', '--yes']);
    expect(supply.doc.error, supply.stderr).toBeUndefined();
    const borrow = await alice(['borrow', '100', 'USDT', '--collateral', '1000', 'STRK', '--yes']);
    expect(borrow.doc.error, borrow.stderr).toBeUndefined();
    const r = await alice(['portfolio', '--fresh']);
    expect(r.code, r.stderr).toBe(0);
    const doc = r.doc as unknown as {
      tokens: Array<{ value: { cents: string } | null }>;
      positions: Array<{
        kind: string;
        symbol: string;
        baseUnits: string;
        value: { cents: string } | null;
        healthFactor?: string | null;
      }>;
      total: { cents: string };
      net: { cents: string };
      notes: string[];
    };
    expect(doc.positions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'supplied', symbol: 'USDC' }),
        expect.objectContaining({ kind: 'collateral', symbol: 'STRK' }),
        expect.objectContaining({
          kind: 'debt',
          symbol: 'USDT',
          healthFactor: expect.stringMatching(/^\d+(\.\d+)?$/),
        }),
      ]),
    );
    const debt = doc.positions.find((p) => p.kind === 'debt');
    expect(BigInt(debt?.baseUnits ?? '0')).toBeLessThan(0n);
    expect(BigInt(debt?.value?.cents ?? '0')).toBeLessThan(0n);
    const lines = [
      ...doc.tokens.map((t) => BigInt(t.value?.cents ?? '0')),
      ...doc.positions.map((p) => BigInt(p.value?.cents ?? '0')),
    ];
    expect(BigInt(doc.net.cents)).toBe(lines.reduce((s, c) => s + c, 0n));
    expect(doc.notes.join(' ')).toMatch(/rebalance acts on wallet tokens only/);
  }, 300_000);

  it('on the sandbox a refusal names the sandbox, never mainnet', async () => {
    const token = await alice(['supply', '10', 'FOO']);
    expect(token.doc.error).toMatchObject({ code: 'UNKNOWN_TOKEN' });
    expect(token.doc.error?.message).toMatch(/unknown token "FOO" in the sandbox/);
    const pool = await alice(['supply', '10', 'USDT', '--pool', 'Nope']);
    expect(pool.doc.error).toMatchObject({ code: 'UNKNOWN_POOL' });
    expect(pool.doc.error?.message).not.toMatch(/mainnet/);
  }, 60_000);
});
