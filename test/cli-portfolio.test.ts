/**
 * Issue 19 end to end, through whole processes on loopback: a sandbox in its own process and
 * several signed-in wallets (each a faucet wallet: ETH 10, STRK 20 000, USDC/USDT/DAI 10 000,
 * WBTC 0.5). `portfolio` human and --json (exact shares adding up to 100.00 %, the price cache),
 * an unpriced token (the aggregator's no-route knob), the test network, an unbalanced target,
 * the band, `portfolio-rebalance --yes` leaving the allocation within the band of the target for
 * several starting wallets (one not holding a target token at all; one selling the unlisted
 * tokens in one transaction of 5 legs, issue 25), "already balanced" (exit 0, nothing signed), a
 * run refused before signing because it could not reach the band, and `history --csv`.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cli,
  cliInProcess,
  type Doc,
  signIn,
  startTwoUsers,
  type TwoUsers,
} from './helpers/cli-sandbox.js';
import { tempHome } from './helpers/process.js';
import { postJson } from './helpers/sandbox-session.js';

interface PToken {
  symbol: string;
  amount: string;
  baseUnits: string;
  price: { usd: string } | null;
  value: { usd: string; cents: string } | null;
  share: { percent: string; units: number } | null;
  unpriced: string | null;
  cached: boolean;
}
interface PDoc {
  network: string;
  sandbox: boolean;
  tokens: PToken[];
  total: { usd: string; cents: string };
  unpriced: Array<{ symbol: string; reason: string }>;
  notes: string[];
  pricing: { cacheSeconds: number; ageSeconds: number | null; fromCache: number; method: string };
}
interface RView {
  base: string;
  baseNote: string;
  rows: Array<{ symbol: string; now: string; target: string; after: string | null }>;
  afterFrom: string;
  notes: string[];
  deferred: unknown[];
}

const LONG = 180_000;

/**
 * A sandbox of the describe's own, alice and bob signed in: a swap moves the sandbox's pool prices,
 * so the tests that read exact prices or trade on them each see pools only their describe moved,
 * whichever test ran before.
 */
function ownSandbox() {
  const sb = {
    users: undefined as unknown as TwoUsers,
    homes: [] as Array<{ dir: string; cleanup: () => void }>,
    /** a new faucet wallet on this sandbox, signed in: its data folder */
    async newWallet(email: string): Promise<string> {
      const home = tempHome();
      sb.homes.push(home);
      copyFileSync(join(sb.users.aliceHome, 'sandbox.json'), join(home.dir, 'sandbox.json'));
      await signIn(home.dir, email);
      return home.dir;
    },
  };
  beforeAll(async () => {
    sb.users = await startTwoUsers();
  }, LONG);
  afterAll(async () => {
    await sb.users?.close();
    for (const h of sb.homes) h.cleanup();
  });
  return sb;
}

const run = (home: string, args: string[]) => cliInProcess(home, [...args, '--sandbox', '--json']);
/** the bin itself: the usage refusals and the human table keep their own process */
const runSpawned = (home: string, args: string[]) => cli(home, [...args, '--sandbox', '--json']);

async function portfolioOf(home: string): Promise<PDoc> {
  const r = await run(home, ['portfolio', '--fresh']);
  expect(r.code, r.stdout).toBe(0);
  return r.doc as unknown as PDoc;
}

/** Every named token within `bandUnits` (hundredths of a percent) of its target share of `symbols`' total, exactly. */
function expectWithinBand(p: PDoc, targets: Record<string, number>, bandUnits = 200n): void {
  const cents = (s: string) => BigInt(p.tokens.find((t) => t.symbol === s)?.value?.cents ?? '0');
  const symbols = Object.keys(targets);
  const total = symbols.reduce((sum, s) => sum + cents(s), 0n);
  for (const s of symbols) {
    const diff = cents(s) * 10_000n - BigInt((targets[s] as number) * 100) * total;
    expect(
      (diff < 0n ? -diff : diff) <= bandUnits * total,
      `${s}: ${cents(s)} of ${total} vs target ${targets[s]} %`,
    ).toBe(true);
  }
}

const historyCount = async (home: string): Promise<number> =>
  ((await run(home, ['history'])).doc.entries as unknown[]).length;

describe('portfolio, and rebalance plans, on untouched pools (whole processes)', () => {
  const sb = ownSandbox();

  it(
    'portfolio --json: every held token, exact balances, prices, shares adding up to exactly 100.00 %; total = the values; the cache and its age',
    async () => {
      const p = await portfolioOf(sb.users.bobHome);
      expect(p).toMatchObject({
        network: 'sandbox',
        sandbox: true,
        unpriced: [],
        pricing: { cacheSeconds: 20, fromCache: 0 },
      });
      expect(p.tokens.map((t) => t.symbol).sort()).toEqual([
        'DAI',
        'ETH',
        'STRK',
        'USDC',
        'USDT',
        'WBTC',
      ]);
      const balances = (await run(sb.users.bobHome, ['balance'])).doc.balances as Array<{
        symbol: string;
        baseUnits: string;
      }>;
      for (const t of p.tokens)
        expect(t.baseUnits).toBe(balances.find((b) => b.symbol === t.symbol)?.baseUnits);
      expect(p.tokens.reduce((s, t) => s + (t.share?.units ?? 0), 0)).toBe(10_000);
      expect(p.tokens.reduce((s, t) => s + BigInt(t.value?.cents ?? '0'), 0n).toString()).toBe(
        p.total.cents,
      );
      expect(p.tokens.find((t) => t.symbol === 'ETH')?.price?.usd).toBe('3000.00');
      // a second look within 20 s is served from the cache, with its age
      const again = (await run(sb.users.bobHome, ['portfolio'])).doc as unknown as PDoc;
      expect(again.pricing.fromCache).toBe(p.tokens.length);
      expect(again.pricing.ageSeconds).toBeGreaterThanOrEqual(0);
      expect(again.total).toEqual(p.total);
      // the cache is written the program's one way: whole, 0600, no temp file left beside it
      expect(statSync(join(sb.users.bobHome, 'price-cache.json')).mode & 0o777).toBe(0o600);
      expect(readdirSync(sb.users.bobHome).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    },
    LONG,
  );

  it(
    'portfolio (human): a table with bars, the total, the price age and how prices are derived',
    async () => {
      const r = await cli(sb.users.bobHome, ['portfolio', '--sandbox']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/token +balance +price USD +value USD +share/);
      expect(r.stdout).toMatch(/ETH +10 +3000\.00 +30000\.00 +\d+\.\d\d % +█+·+/);
      expect(r.stdout).toMatch(/Total: \d+\.\d\d USD/);
      expect(r.stdout).toMatch(/prices \d+ s old/);
    },
    LONG,
  );

  it(
    'an unpriced token (no route): shown with the reason, left out of the total and the shares, never valued at 0',
    async () => {
      const knob = `${sb.users.urls.aggregatorUrl}/sandbox/no-route`;
      expect((await postJson(knob, { tokenIn: 'DAI', tokenOut: 'USDC' })).status).toBe(200);
      try {
        const p = await portfolioOf(sb.users.bobHome);
        const dai = p.tokens.find((t) => t.symbol === 'DAI');
        expect(dai).toMatchObject({ amount: '10000', price: null, value: null, share: null });
        expect(dai?.unpriced).toMatch(/NO_ROUTE_FOUND/);
        expect(p.unpriced).toEqual([{ symbol: 'DAI', reason: dai?.unpriced }]);
        expect(p.notes.join(' ')).toMatch(/DAI has no price and is left out of the total/);
        expect(p.tokens.reduce((s, t) => s + (t.share?.units ?? 0), 0)).toBe(10_000);
        expect(p.tokens.reduce((s, t) => s + BigInt(t.value?.cents ?? '0'), 0n).toString()).toBe(
          p.total.cents,
        );
        const human = await cliInProcess(sb.users.bobHome, ['portfolio', '--sandbox', '--fresh']);
        expect(human.stdout).toMatch(/DAI +10000 +unpriced +—/);
        expect(human.stdout).toMatch(/priced tokens only/);
        // a target without a price cannot be planned: its value is unknown
        const r = await run(sb.users.bobHome, [
          'portfolio-rebalance',
          '--target',
          '50 ETH, 50 DAI',
        ]);
        expect(r.code).toBe(1);
        expect(r.doc.error).toMatchObject({ code: 'NO_ROUTE_FOUND' });
        expect(r.doc.error?.message).toMatch(/no price for DAI/);
      } finally {
        await postJson(knob, { tokenIn: 'DAI', tokenOut: 'USDC', clear: true });
      }
    },
    LONG,
  );

  it(
    'the test network: balances shown, every price says why it is missing; a rebalance is refused like every swap',
    async () => {
      const home = tempHome();
      sb.homes.push(home);
      // bob's wallet, as a session on sepolia whose reads go to the sandbox chain
      const sandbox = JSON.parse(
        readFileSync(join(sb.users.aliceHome, 'sandbox.json'), 'utf8'),
      ) as {
        serverUrl: string;
        rpcUrl: string;
      };
      const saved = JSON.parse(readFileSync(join(sb.users.bobHome, 'session.json'), 'utf8')) as {
        session: Record<string, unknown>;
      };
      writeFileSync(
        join(home.dir, 'session.json'),
        JSON.stringify({
          session: {
            ...saved.session,
            network: 'sepolia',
            sandbox: false,
            serverUrl: sandbox.serverUrl,
          },
        }),
        { mode: 0o600 },
      );
      writeFileSync(
        join(home.dir, 'settings.json'),
        JSON.stringify({
          serverUrl: sandbox.serverUrl,
          rpcUrl: sandbox.rpcUrl,
          network: 'sepolia',
        }),
      );
      const r = await cliInProcess(home.dir, ['portfolio', '--json']);
      expect(r.code, r.stdout).toBe(0);
      const p = r.doc as unknown as PDoc;
      expect(p).toMatchObject({
        network: 'sepolia',
        sandbox: false,
        total: { usd: '0.00', cents: '0' },
      });
      expect(p.tokens.map((t) => t.symbol)).toEqual(['ETH', 'STRK']);
      for (const t of p.tokens) {
        expect(t).toMatchObject({ price: null, value: null, share: null });
        expect(t.unpriced).toMatch(
          /no price on sepolia: prices come from the swap aggregator, which serves mainnet only/,
        );
      }
      const human = await cliInProcess(home.dir, ['portfolio']);
      expect(human.stdout).toMatch(/ETH +\d+(\.\d+)? +unpriced/);
      const refused = await cliInProcess(home.dir, [
        'portfolio-rebalance',
        '--target',
        '50 ETH, 50 STRK',
        '--json',
      ]);
      expect(refused.doc.error?.code).toBe('NETWORK_UNSUPPORTED');
    },
    LONG,
  );

  it(
    'targets that do not add up to 100, or no target: a clear usage error, nothing planned',
    async () => {
      const r = await runSpawned(sb.users.bobHome, [
        'portfolio-rebalance',
        '--target',
        '50 ETH, 30 USDC',
      ]);
      expect(r.code).toBe(1);
      expect(r.doc.error).toMatchObject({
        code: 'USAGE_ERROR',
        // the core says what is wrong and that it is about the target; the headless face names its flag
        message: '--target: percentages must add up to 100; they add up to 80',
        details: { field: 'target' },
      });
      const none = await runSpawned(sb.users.bobHome, ['portfolio-rebalance']);
      expect(none.doc.error?.message).toMatch(/--target is required/);
      const human = await cli(sb.users.bobHome, [
        'portfolio-rebalance',
        '--target',
        '60 ETH, 60 USDC',
        '--sandbox',
      ]);
      expect(human.stderr).toMatch(/they add up to 120 \(USAGE_ERROR\)/);
    },
    LONG,
  );

  it(
    'the band: 1 point off is within the default 2 points (already balanced, exit 0, nothing signed); with --band 0.5 it is a plan',
    async () => {
      const home = await sb.newWallet('band@example.com');
      // the faucet wallet: ETH 60 %, USDC 20 %, STRK 20 % of the three
      const balanced = await run(home, [
        'portfolio-rebalance',
        '--target',
        '61 ETH, 19 USDC, 20 STRK',
        '--yes',
      ]);
      expect(balanced.code, balanced.stdout).toBe(0);
      expect(balanced.doc).toMatchObject({ status: 'balanced', signed: false });
      expect(await historyCount(home)).toBe(0);
      const tight = await run(home, [
        'portfolio-rebalance',
        '--target',
        '61 ETH, 19 USDC, 20 STRK',
        '--band',
        '0.5',
      ]);
      expect(tight.code).toBe(1);
      expect(tight.doc.error?.code).toBe('CONFIRMATION_REQUIRED');
      const plan = tight.doc.error?.details?.plan as Doc & {
        rebalance: RView;
        swaps: Array<{ from: { symbol: string }; to: { symbol: string } }>;
      };
      expect(plan.kind).toBe('rebalance');
      expect(plan.swaps.map((s) => `${s.from.symbol}>${s.to.symbol}`)).toEqual(['USDC>ETH']);
      expect(plan.rebalance.rows.map((row) => [row.symbol, row.target])).toEqual([
        ['ETH', '61.00'],
        ['USDC', '19.00'],
        ['STRK', '20.00'],
      ]);
    },
    LONG,
  );
});

describe('portfolio-rebalance --yes of named tokens (whole processes)', () => {
  const sb = ownSandbox();

  it(
    'rebalance --yes (named tokens): one transaction of approve → swap legs; afterwards within the band, the unlisted tokens untouched; then "already balanced"; history --csv lists it',
    async () => {
      const home = sb.users.aliceHome;
      const before = await portfolioOf(home);
      const preview = await cliInProcess(home, [
        'portfolio-rebalance',
        '--target',
        '50 ETH, 30 USDC, 20 STRK',
        '--sandbox',
      ]);
      expect(preview.code).toBe(1);
      expect(preview.stdout).toMatch(/token +now % +target % +after % \(simulated\)/);
      expect(preview.stdout).toMatch(
        /what the named tokens are worth together; USDT, DAI, WBTC kept/,
      );
      expect(preview.stdout).toMatch(/swap [0-9.]+ \w+ → at least [0-9.]+ \w+/);
      const r = await run(home, [
        'portfolio-rebalance',
        '--target',
        '50 ETH, 30 USDC, 20 STRK',
        '--yes',
      ]);
      expect(r.code, r.stdout).toBe(0);
      const doc = r.doc as Doc & {
        rebalance: RView;
        calls: Array<{ entrypoint: string }>;
        transaction: { status: string };
      };
      expect(doc.transaction.status).toBe('SUCCEEDED');
      expect(doc.calls.map((c) => c.entrypoint)).toEqual(['approve', 'swap']);
      expect(doc.rebalance.afterFrom).toBe('simulation');
      for (const row of doc.rebalance.rows)
        expect(Math.abs(Number(row.after) - Number(row.target))).toBeLessThanOrEqual(2);
      const after = await portfolioOf(home);
      expectWithinBand(after, { ETH: 50, USDC: 30, STRK: 20 });
      for (const s of ['USDT', 'DAI', 'WBTC'])
        expect(after.tokens.find((t) => t.symbol === s)?.baseUnits).toBe(
          before.tokens.find((t) => t.symbol === s)?.baseUnits,
        );
      // nothing left to do: exit 0, nothing signed
      const count = await historyCount(home);
      const again = await cliInProcess(home, [
        'portfolio-rebalance',
        '--target',
        '50 ETH, 30 USDC, 20 STRK',
        '--yes',
        '--sandbox',
      ]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/Already balanced/);
      expect(await historyCount(home)).toBe(count);
      // history --csv: a header, one row per transaction, exact amounts, the rebalance among them
      const csv = await cliInProcess(home, ['history', '--csv']);
      expect(csv.code, csv.stderr).toBe(0);
      const lines = csv.stdout.split('\r\n');
      expect(lines[0]).toBe('time,kind,network,hash,left,arrived,fee,status');
      const row = lines.find((l) => l.includes(',rebalance,'));
      // the fee column: the gas the receipt shows paid (empty only when the paymaster sponsored it)
      expect(row).toMatch(
        /^\d{4}-\d\d-\d\dT[^,]+,rebalance,sandbox,0x[0-9a-f]{64},[0-9.]+ ETH,[0-9.]+ USDC,([0-9.]+ [A-Z]+)?,succeeded$/,
      );
      expect(lines.at(-1)).toBe('');
      const both = await cliInProcess(home, ['history', '--csv', '--json']);
      expect(both.doc.error?.code).toBe('USAGE_ERROR');
    },
    LONG,
  );
});

describe('portfolio-rebalance --yes from other starting wallets (whole processes)', () => {
  const sb = ownSandbox();

  it(
    'a target token not held at all (USDC.e) is bought; afterwards within the band',
    async () => {
      const home = await sb.newWallet('nousdce@example.com');
      expect((await portfolioOf(home)).tokens.some((t) => t.symbol === 'USDC.e')).toBe(false);
      const r = await run(home, ['portfolio-rebalance', '--target', '40 ETH, 60 USDC.e', '--yes']);
      expect(r.code, r.stdout).toBe(0);
      expectWithinBand(await portfolioOf(home), { ETH: 40, 'USDC.e': 60 });
    },
    LONG,
  );

  it(
    'issue 25: --sell-unlisted of ETH, STRK, USDC, USDT, DAI, WBTC to 50 ETH, 30 USDC, 20 STRK: one transaction of every leg ends within the band; a second run says already balanced',
    async () => {
      const home = await sb.newWallet('sellall@example.com');
      const before = await portfolioOf(home);
      expect(before.tokens.map((t) => t.symbol).sort()).toEqual([
        'DAI',
        'ETH',
        'STRK',
        'USDC',
        'USDT',
        'WBTC',
      ]);
      const target = [
        'portfolio-rebalance',
        '--target',
        '50 ETH, 30 USDC, 20 STRK',
        '--sell-unlisted',
      ];
      const preview = await run(home, target);
      const plan = preview.doc.error?.details?.plan as { rebalance: RView; swaps: unknown[] };
      expect(plan.rebalance.base).toBe('whole-wallet');
      expect(plan.rebalance.baseNote).toMatch(
        /of the whole \(priced\) wallet; tokens the target does not name are sold/,
      );
      // WBTC → ETH, WBTC → USDC, DAI → STRK, USDT → USDC, USDT → STRK: more than the aggregator's 3-pair batch
      expect(plan.swaps).toHaveLength(5);
      const r = await run(home, [...target, '--yes']);
      expect(r.code, r.stdout).toBe(0);
      const doc = r.doc as Doc & {
        rebalance: RView;
        calls: Array<{ entrypoint: string }>;
        transaction: { status: string; hash: string };
      };
      expect(doc.transaction.status).toBe('SUCCEEDED');
      expect(doc.calls.map((c) => c.entrypoint)).toEqual(
        Array.from({ length: 5 }, () => ['approve', 'swap']).flat(),
      );
      for (const row of doc.rebalance.rows)
        expect(Math.abs(Number(row.after) - Number(row.target))).toBeLessThanOrEqual(2);
      // read afterwards as anyone would: portfolio --json
      const after = await portfolioOf(home);
      expectWithinBand(after, { ETH: 50, USDC: 30, STRK: 20, USDT: 0, DAI: 0, WBTC: 0 });
      for (const s of ['USDT', 'DAI', 'WBTC'])
        expect(after.tokens.find((t) => t.symbol === s)?.baseUnits ?? '0').toBe('0');
      // a second run: already balanced, nothing signed
      const count = await historyCount(home);
      const again = await run(home, [...target, '--yes']);
      expect(again.code, again.stdout).toBe(0);
      expect(again.doc).toMatchObject({ status: 'balanced', signed: false });
      expect(await historyCount(home)).toBe(count);
    },
    LONG * 2,
  );

  it(
    'a run that could not reach the band is refused before signing: legs below the minimum trade would leave tokens outside it',
    async () => {
      const home = await sb.newWallet('mintrade@example.com');
      const r = await run(home, [
        ...['portfolio-rebalance', '--target', '50 ETH, 30 USDC, 20 STRK', '--sell-unlisted'],
        ...['--min-trade', '12000', '--yes'],
      ]);
      expect(r.code).toBe(1);
      expect(r.doc.error).toMatchObject({
        code: 'REBALANCE_OUTSIDE_BAND',
        details: { reason: 'minimum-trade', remedy: ['min-trade'] },
      });
      expect(r.doc.error?.message).toMatch(/minimum trade of 12000\.00 USD/);
      expect(await historyCount(home)).toBe(0);
      const human = await cliInProcess(home, [
        ...['portfolio-rebalance', '--target', '50 ETH, 30 USDC, 20 STRK', '--sell-unlisted'],
        ...['--min-trade', '12000', '--yes', '--sandbox'],
      ]);
      expect(human.stderr).toMatch(
        /nothing is signed, a lower --min-trade makes those swaps too \(REBALANCE_OUTSIDE_BAND\)/,
      );
    },
    LONG,
  );
});
