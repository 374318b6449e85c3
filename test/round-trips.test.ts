/**
 * Issue 14 "Performance": a `send --yes` and a `trade --yes` wait for at most 7 sequential round
 * trips (docs/execution.md "Round trips"). Counted, not timed: the built bin runs with the fetch
 * probe preloaded (bench/fetch-probe.ts), which orders every request's start and answer and
 * reports the longest chain of requests each started after the one before had answered. The
 * sandbox's latency knob holds every emulator answer back, so requests that are sent together
 * are all under way before the first answers (the count is of the order of events, not of time).
 * Issue 25 "Speed": `portfolio` with positions costs one more chain round than `balance`
 * (docs/portfolio.md "Positions"), its views sent as JSON-RPC batches; a lending plan's own reads
 * (a borrow's pair, a withdrawal's hinted vToken) take no round beyond a send's plan
 * (docs/decisions.md "A plan's lending reads: one round").
 *
 * Every user is signed in, and the wallets with positions given them, before the hold is on
 * (set-up, not the subject: in this worker, docs/decisions.md "Bin runs in-process where the
 * result is the subject"). Each wallet is one test's (alice's two tests take turns), so the
 * tests run side by side; the one that makes a node refuse batches has a sandbox of its own, that
 * knob being the node's (docs/decisions.md "Round trips counted side by side").
 */
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, type ExpectStatic, it } from 'vitest';
import { FETCH_PROBE, readProbe } from '../bench/fetch-probe.js';
import { VTOKEN_HINTS_FILE } from '../cli/core/vtoken-hints.js';
import type { Doc } from './helpers/cli-sandbox.js';
import { cliInProcess, signIn, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';
import { cleanEnv, spawnBin, tempHome } from './helpers/process.js';
import { type InProcessSandbox, startSandboxInProcess } from './helpers/sandbox-in-process.js';

const MAX_ROUND_TRIPS = 7;

/**
 * The requests (the probe's `METHOD path [json-rpc method]`) that asked `method`, alone or in a
 * JSON-RPC batch (the probe joins a batch's methods with `+`), once per time it was asked.
 */
const asked = (requests: string[], method: string): string[] =>
  requests.flatMap((q) =>
    (q.split(' ')[2] ?? '')
      .split('+')
      .filter((m) => m === method)
      .map(() => q),
  );
/** a rebalance first takes the wallet's snapshot: its balances, then their prices (one parallel round) */
const MAX_REBALANCE_ROUND_TRIPS = MAX_ROUND_TRIPS + 2;
/** long against the client's own work between requests sent together, even on a busy machine */
const LATENCY_MS = 200;

describe('sequential round trips of a money command (whole processes)', () => {
  let users: TwoUsers;
  /** each test's own wallet besides alice's and bob's, signed in (and funded) before the hold */
  const wallet = { positions: '', planReads: '', rebalance: '' };
  const homes: Array<{ cleanup: () => void }> = [];
  const sandboxes: InProcessSandbox[] = [];

  /** The bin, spawned with the probe; `check` is the running test's expect (side by side). */
  const countedBy =
    (check: ExpectStatic) =>
    async (
      args: string[],
      home = users.aliceHome,
      exitCode = 0,
    ): Promise<{ doc: Doc; steps: number; chainSteps: number; requests: string[] }> => {
      const spawned = spawnBin(args, cleanEnv({ FINANCE_TUI_HOME: home }), undefined, {
        nodeArgs: ['--import', FETCH_PROBE],
      });
      const { code } = await spawned.exited;
      const doc = JSON.parse(spawned.stdout()) as Doc;
      check(code, spawned.stdout() + spawned.stderr()).toBe(exitCode);
      return { doc, ...readProbe(spawned.stderr()) };
    };

  /** The URLs of the sandbox whose sandbox.json `home` holds. */
  const urlsOf = (home: string) =>
    JSON.parse(readFileSync(join(home, 'sandbox.json'), 'utf8')) as {
      identityUrl: string;
      aggregatorUrl: string;
      chainUrl: string;
    };

  /**
   * A new faucet wallet, signed in, that has run `setUp` (each must succeed): on the sandbox of
   * `sandboxHome` (alice's), or with `ownSandbox` on a sandbox of its own, whose data folder the
   * home is.
   */
  async function newWallet(
    email: string,
    setUp: string[][] = [],
    { ownSandbox = false, sandboxHome = users.aliceHome } = {},
  ): Promise<string> {
    const home = tempHome();
    homes.push(home);
    if (ownSandbox) {
      const sandbox = startSandboxInProcess(
        ['sandbox', '--port', '0', '--json'],
        cleanEnv({ FINANCE_TUI_HOME: home.dir }),
      );
      sandboxes.push(sandbox);
      // no deadline of its own: the hook's bounds the wait (as startTwoUsers)
      await sandbox.waitForLine((line) => line.includes('"ready"'), Infinity);
    } else copyFileSync(join(sandboxHome, 'sandbox.json'), join(home.dir, 'sandbox.json'));
    await signIn(home.dir, email);
    for (const args of setUp) {
      const r = await cliInProcess(home.dir, [...args, '--yes', '--json', '--sandbox']);
      expect(r.doc, r.stderr).toMatchObject({ transaction: { status: 'SUCCEEDED' } });
    }
    return home.dir;
  }

  beforeAll(async () => {
    users = await startTwoUsers();
    // sign-ins and set-up transactions, one after another, before the hold: none is counted.
    // The positions' test makes its node refuse batches: that node is its own, so the test runs
    // beside the others
    wallet.positions = await newWallet(
      'positions-trips@example.com',
      [
        ['stake', '100', '--validator', 'Sandbox Alpha'],
        ['supply', '100', 'USDC'],
        ['borrow', '100', 'USDT', '--collateral', '1 ETH'],
      ],
      { ownSandbox: true },
    );
    // its supply keeps the USDC vToken as a hint
    wallet.planReads = await newWallet('plan-reads-trips@example.com', [
      ['supply', '100', 'USDC'],
      ['borrow', '100', 'USDT', '--collateral', '1 ETH'],
    ]);
    wallet.rebalance = await newWallet('rebalance-trips@example.com');
    for (const home of [users.aliceHome, wallet.positions]) {
      const { identityUrl, aggregatorUrl, chainUrl } = urlsOf(home);
      for (const url of [identityUrl, aggregatorUrl, chainUrl]) {
        const response = await fetch(`${url}/sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ latencyMs: LATENCY_MS }),
        });
        expect(response.ok).toBe(true);
      }
    }
    // two sandboxes, five sign-ins and five transactions: slow on a busy shared machine
  }, 90_000);
  afterAll(async () => {
    for (const sandbox of sandboxes) sandbox.kill();
    await Promise.all(sandboxes.map((sandbox) => sandbox.exited));
    await users?.close();
    for (const h of homes) h.cleanup();
  });

  describe('one wallet each, side by side', () => {
    it.concurrent(`send --yes (the account's first transaction, which deploys it): at most ${MAX_ROUND_TRIPS}`, async ({
      expect,
    }) => {
      const counted = countedBy(expect);
      // bob's wallet: no other test sends from it, so this is its first transaction in any order
      const r = await counted(
        ['send', '1', 'STRK', `0x0${'1'.repeat(63)}`, '--yes', '--json', '--sandbox'],
        users.bobHome,
      );
      expect(r.doc).toMatchObject({
        transaction: { status: 'SUCCEEDED', deployedAccount: true },
      });
      expect(r.steps, r.requests.join('\n')).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
      // each fact is asked once: the account's class hash, chain id and nonce, the build, the simulation
      for (const method of [
        'starknet_getClassHashAt',
        'starknet_chainId',
        'paymaster_buildTransaction',
        'starknet_simulateTransactions',
        'paymaster_executeTransaction',
      ]) {
        expect(asked(r.requests, method), method).toHaveLength(1);
      }
      // the account's facts (class hash, chain id, nonce, two SRC-5 questions) as one JSON-RPC batch
      expect(r.requests, r.requests.join('\n')).toContain(
        'POST /rpc starknet_getClassHashAt+starknet_chainId+starknet_getNonce+starknet_call+starknet_call',
      );
      // the receipt's check (read again, the outside nonce, the spent token's balance) as one batch
      expect(r.requests, r.requests.join('\n')).toContain(
        'POST /rpc starknet_getTransactionReceipt+starknet_call+starknet_call',
      );
    }, 120_000);

    // alice's wallet: her two tests take turns (one nonce), beside the others
    describe.concurrent("alice's wallet", () => {
      it(
        `trade --yes: at most ${MAX_ROUND_TRIPS}; send --yes of a deployed account: at most ${MAX_ROUND_TRIPS}`,
        { concurrent: false, timeout: 120_000 },
        async ({ expect }) => {
          const counted = countedBy(expect);
          // alice's first transaction (it deploys her account: the count holds either way)
          const trade = await counted([
            'trade',
            '0.01',
            'ETH',
            'USDC',
            '--yes',
            '--json',
            '--sandbox',
          ]);
          expect(trade.doc).toMatchObject({ transaction: { status: 'SUCCEEDED' } });
          expect(trade.steps, trade.requests.join('\n')).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
          const send = await counted([
            'send',
            '1',
            'STRK',
            users.bobAddress,
            '--yes',
            '--json',
            '--sandbox',
          ]);
          expect(send.doc).toMatchObject({
            transaction: { status: 'SUCCEEDED', deployedAccount: false },
          });
          expect(send.steps, send.requests.join('\n')).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
          expect(asked(send.requests, 'starknet_getNonce')).toHaveLength(1);
        },
      );

      it(
        `stake --yes: at most ${MAX_ROUND_TRIPS + 1}, a send's and the re-read of its terms before signing (its chain reads run beside the balances)`,
        { concurrent: false, timeout: 120_000 },
        async ({ expect }) => {
          const counted = countedBy(expect);
          const stake = await counted([
            ...['stake', '10', '--validator', 'Sandbox Alpha', '--yes', '--json', '--sandbox'],
          ]);
          expect(stake.doc).toMatchObject({ kind: 'stake', transaction: { status: 'SUCCEEDED' } });
          // what the review's terms depend on is read again right before signing (recheck.ts), in a
          // round of its own after the simulation (docs/execution.md "Round trips")
          expect(stake.steps, stake.requests.join('\n')).toBeLessThanOrEqual(MAX_ROUND_TRIPS + 1);
        },
      );
    });

    it.concurrent("a lending plan's own chain reads take one round, beside the balances: a borrow's (the prices through the pool) and a withdrawal's (its vToken hinted)", async ({
      expect,
    }) => {
      const counted = countedBy(expect);
      // a faucet wallet of its own, with a supply (which keeps the USDC vToken as a hint) and a borrow (beforeAll)
      const home = wallet.planReads;
      // plans only (nothing signed: CONFIRMATION_REQUIRED, exit 1), against a send's plan
      const plan = async (args: string[]) => {
        const r = await counted([...args, '--json', '--sandbox'], home, 1);
        expect(r.doc).toMatchObject({ error: { code: 'CONFIRMATION_REQUIRED' } });
        return r;
      };
      // three plans side by side: each process's probe counts its own requests
      const [send, borrow, withdraw] = await Promise.all([
        plan(['send', '1', 'STRK', users.bobAddress]),
        plan(['borrow', '10', 'USDT', '--collateral', '0.1 ETH']),
        plan(['withdraw', '10', 'USDC']),
      ]);
      // the pair's views and the hinted vToken's sit in the round of the balances: no round more
      expect(borrow.chainSteps, borrow.requests.join('\n')).toBeLessThanOrEqual(send.chainSteps);
      expect(withdraw.chainSteps, withdraw.requests.join('\n')).toBeLessThanOrEqual(
        send.chainSteps,
      );
      expect(borrow.steps - send.steps, borrow.requests.join('\n')).toBeLessThanOrEqual(0);
      expect(withdraw.steps - send.steps, withdraw.requests.join('\n')).toBeLessThanOrEqual(0);
      expect(borrow.requests.some((q) => q.includes('starknet_call+starknet_call'))).toBe(true);
      // without the hint (the first read ever): the factory first, then the shares — one round more
      rmSync(join(home, VTOKEN_HINTS_FILE), { force: true });
      const cold = await plan(['withdraw', '10', 'USDC']);
      expect(cold.chainSteps, cold.requests.join('\n')).toBeLessThanOrEqual(send.chainSteps + 1);
      // and the hint is back: the next plan reads in one round again
      const again = await plan(['withdraw', '10', 'USDC']);
      expect(again.chainSteps, again.requests.join('\n')).toBeLessThanOrEqual(send.chainSteps);
    }, 120_000);

    it.concurrent(`portfolio-rebalance --yes of 5 legs: at most ${MAX_REBALANCE_ROUND_TRIPS}, whatever the leg count (each leg's route asked in parallel, no batch route)`, async ({
      expect,
    }) => {
      const counted = countedBy(expect);
      // a faucet wallet of its own (ETH, STRK, USDC, USDT, DAI, WBTC): selling the unlisted tokens takes 5 legs
      const home = wallet.rebalance;
      const r = await counted(
        [
          ...['portfolio-rebalance', '--target', '50 ETH, 30 USDC, 20 STRK', '--sell-unlisted'],
          ...['--yes', '--json', '--sandbox'],
        ],
        home,
      );
      expect(r.doc).toMatchObject({ kind: 'rebalance', transaction: { status: 'SUCCEEDED' } });
      const swaps = (r.doc.swaps as unknown[]).length;
      expect(swaps).toBe(5);
      expect(r.steps, r.requests.join('\n')).toBeLessThanOrEqual(MAX_REBALANCE_ROUND_TRIPS);
      // each leg: its own route and calldata request; the aggregator's batch routing is not used
      expect(r.requests.filter((q) => / \/calldata\b/.test(q))).toHaveLength(swaps);
      expect(r.requests.filter((q) => /\/(routeBatch|executeBatch)\b/.test(q))).toEqual([]);
    }, 120_000);

    // on a sandbox of its own: the knob that makes a node refuse batches is the node's
    it.concurrent('portfolio with positions: one chain round beside the balances, then one for what is held, as batches; a node that refuses batches still works', async ({
      expect,
    }) => {
      const counted = countedBy(expect);
      // a faucet wallet of its own, with a stake, a supply and a borrow (beforeAll)
      const home = wallet.positions;
      const { chainUrl } = urlsOf(home);
      const kinds = (doc: Doc): string[] =>
        (doc.positions as Array<{ kind: string; symbol: string }>)
          .map((p) => `${p.kind} ${p.symbol}`)
          .sort();
      const held = ['collateral ETH', 'debt USDT', 'staked STRK', 'supplied USDC'];
      const posts = (requests: string[]): string[] =>
        requests.filter((q) => q.startsWith('POST /rpc'));
      // the balances beside the first read (each process's probe counts its own requests);
      // the first read finds the vTokens through the factory: their shares, then what they are worth
      const [balance, cold] = await Promise.all([
        counted(['balance', '--json', '--sandbox'], home),
        counted(['portfolio', '--json', '--sandbox'], home),
      ]);
      expect(kinds(cold.doc)).toEqual(held);
      expect(cold.chainSteps - balance.chainSteps, cold.requests.join('\n')).toBeLessThanOrEqual(2);
      // later reads ask the hinted vToken's shares in the first round, the factory beside them
      const warm = await counted(['portfolio', '--json', '--sandbox'], home);
      expect(kinds(warm.doc)).toEqual(held);
      expect(warm.chainSteps - balance.chainSteps, warm.requests.join('\n')).toBeLessThanOrEqual(1);
      // beyond the balances: the positions' one chain round and the one pricing round
      expect(warm.steps - balance.steps, warm.requests.join('\n')).toBeLessThanOrEqual(2);
      // some 80 views, sent as a few batches (each answers up to 20 views)
      expect(posts(warm.requests).length - posts(balance.requests).length).toBeLessThanOrEqual(8);
      expect(warm.requests.some((q) => q.includes('starknet_call+starknet_call'))).toBe(true);

      const knob = (refuseBatches: boolean) =>
        fetch(`${chainUrl}/sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ refuseBatches }),
        });
      expect((await knob(true)).ok).toBe(true);
      try {
        const singles = await counted(['portfolio', '--json', '--sandbox'], home);
        expect(kinds(singles.doc)).toEqual(held);
        expect(singles.doc.notes).toEqual(warm.doc.notes);
        // one refused batch, then one request per view, in the same rounds
        expect(singles.chainSteps - balance.chainSteps).toBeLessThanOrEqual(2);
        expect(posts(singles.requests).length).toBeGreaterThan(posts(warm.requests).length + 40);
      } finally {
        await knob(false);
      }
      const state = (await (await fetch(`${chainUrl}/sandbox/faults`)).json()) as {
        refusedBatches: number;
      };
      expect(state.refusedBatches).toBeGreaterThanOrEqual(1);
    }, 120_000);
  });
});
