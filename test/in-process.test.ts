/**
 * The built program run in the test's worker (test/helpers/in-process.ts) is the bin's result
 * without its process: two sandboxes side by side and the same e-mail signed in on each from its
 * own data folder; commands run in-process against one, then the other, then the first again.
 * Nothing of one sandbox or home reaches the other (the wallet, the balances, the history), the
 * spawned bin answers exactly what the in-process run answered, and a run leaves no timer of its
 * own running in the worker (docs/decisions.md "Bin runs in-process where the result is the
 * subject"). The sandboxes themselves run in this worker too (startTwoUsers,
 * test/helpers/sandbox-in-process.ts): one started after another has stopped in the same worker
 * starts from nothing the first held — wallets, balances, nonces, blocks, the outbox — and a
 * stopped one leaves no server, socket or timer behind (docs/decisions.md "Sandboxes in the worker
 * where they are the set-up").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FAUCET } from '../sandbox/chain/chain.js';
import { parseAmount } from '../shared/amount.js';
import { resolveToken } from '../shared/tokens.js';
import { cli, cliInProcess, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';

interface Amount {
  symbol: string;
  baseUnits: string;
}

const STRK = resolveToken('mainnet', 'STRK');
const FAUCET_STRK = parseAmount(
  FAUCET.find((f) => f.symbol === 'STRK')?.amount ?? '',
  STRK.decimals,
);

/** the worker's timers that keep it alive (an unref'd one ends with the process anyway) */
const timers = (): number =>
  process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('in-process runs of the built program', () => {
  let first: TwoUsers;
  let second: TwoUsers;

  beforeAll(async () => {
    // one after the other: two sandboxes and four sign-ins at once on a loaded machine
    first = await startTwoUsers();
    second = await startTwoUsers();
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  const strkOf = async (home: string): Promise<bigint> => {
    const r = await cliInProcess(home, ['balance', 'STRK', '--sandbox', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    return BigInt((r.doc.balances as Amount[])[0]?.baseUnits ?? '-1');
  };
  const walletOf = async (home: string): Promise<string> => {
    const r = await cliInProcess(home, ['wallet', '--sandbox', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    return (r.doc.wallet as { address: string }).address;
  };

  it('two sandboxes, one e-mail: each home sees its own wallet, balances and history', async () => {
    const here = await walletOf(first.aliceHome);
    const there = await walletOf(second.aliceHome);
    expect(here).not.toBe(there);
    expect(await walletOf(first.aliceHome)).toBe(here);

    const sent = await cliInProcess(first.aliceHome, [
      'send',
      '1',
      'STRK',
      first.bobAddress,
      '--yes',
      '--sandbox',
      '--json',
    ]);
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    expect(sent.doc.sandbox).toBe(true);
    const { hash, feePaid } = sent.doc.transaction as { hash: string; feePaid: Amount | null };
    const fee = feePaid?.symbol === 'STRK' ? BigInt(feePaid.baseUnits) : 0n;

    // the other sandbox's alice, the same e-mail: nothing moved there, nothing recorded
    expect(await strkOf(second.aliceHome)).toBe(FAUCET_STRK);
    expect(await strkOf(first.aliceHome)).toBe(FAUCET_STRK - 10n ** BigInt(STRK.decimals) - fee);
    const otherHistory = await cliInProcess(second.aliceHome, ['history', '--json']);
    expect(otherHistory.code).toBe(0);
    expect(otherHistory.doc.entries).toEqual([]);
    const ownHistory = await cliInProcess(first.aliceHome, ['history', '--json']);
    expect((ownHistory.doc.entries as Array<{ hash: string }>).map((e) => e.hash)).toEqual([hash]);

    // side by side in one worker: the account that sent is a contract on its own chain only, and
    // a code asked of one sandbox is in its outbox only
    const nonceOn = (users: TwoUsers) =>
      rpc(users.urls.rpcUrl, 'starknet_getNonce', { block_id: 'latest', contract_address: here });
    expect(BigInt((await nonceOn(first)).result as string)).toBeGreaterThan(0n);
    expect((await nonceOn(second)).error?.code).toBe(20); // CONTRACT_NOT_FOUND
    const asked = await fetch(`${first.urls.serverUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dave@example.com' }),
    });
    expect(asked.status).toBe(200);
    const outboxOf = (users: TwoUsers) =>
      fetch(`${identityUrlOf(users.aliceHome)}/sandbox/outbox/dave%40example.com`);
    expect((await outboxOf(first)).status).toBe(200);
    expect((await outboxOf(second)).status).toBe(404);
  });

  it('the spawned bin answers what the in-process run answered', async () => {
    for (const args of [
      ['balance', '--sandbox', '--json'],
      ['send', '2', 'STRK', second.bobAddress, '--sandbox', '--json'],
      ['send', '2', 'NOPE', second.bobAddress, '--sandbox', '--json'],
    ]) {
      const inProcess = await cliInProcess(second.bobHome, args);
      const spawned = await cli(second.bobHome, args);
      expect(inProcess.code, args.join(' ')).toBe(spawned.code);
      expect(inProcess.stderr).toBe(spawned.stderr);
      // the plan's simulation is read at its block: the documents match field for field
      expect(inProcess.doc).toEqual(spawned.doc);
    }
    const human = ['balance', 'STRK', 'WBTC', '--sandbox'];
    expect((await cliInProcess(second.bobHome, human)).stdout).toBe(
      (await cli(second.bobHome, human)).stdout,
    );
  });

  it('a run leaves no timer of its own running in the worker', async () => {
    await strkOf(first.bobHome); // the build loaded, its modules' one-time work done
    const before = timers();
    await cliInProcess(first.bobHome, [
      'send',
      '1',
      'STRK',
      second.bobAddress,
      '--sandbox',
      '--json',
    ]);
    await strkOf(second.bobHome);
    // fewer is fine: a timer running before (a socket's, the sandbox's answer) may have ended
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

/** A Starknet JSON-RPC call to a sandbox's node: its result, or its error's code. */
async function rpc(
  rpcUrl: string,
  method: string,
  params: Record<string, unknown>,
): Promise<{ result?: unknown; error?: { code: number } }> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number } };
}

/** The identity emulator's URL of the sandbox `home`'s sandbox.json names. */
function identityUrlOf(home: string): string {
  return (JSON.parse(readFileSync(join(home, 'sandbox.json'), 'utf8')) as { identityUrl: string })
    .identityUrl;
}

/** The worker's listening servers, sockets and timers, by kind. */
function handles(): Record<'TCPServerWrap' | 'TCPSocketWrap' | 'Timeout', number> {
  const kinds = process.getActiveResourcesInfo();
  const count = (kind: string): number => kinds.filter((k) => k === kind).length;
  return {
    TCPServerWrap: count('TCPServerWrap'),
    TCPSocketWrap: count('TCPSocketWrap'),
    Timeout: count('Timeout'),
  };
}

/** The worker's process-wide listeners (the server's log adds an `exit` one while it runs). */
const listeners = (): number[] =>
  (['exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'uncaughtException', 'warning'] as const).map(
    (event) => process.listenerCount(event),
  );

describe('sandboxes in the worker, one after another', () => {
  let later: TwoUsers | undefined;
  afterAll(async () => {
    await later?.close();
  });

  /** What alice's first send leaves on a sandbox: her wallet, nonce, balance, the block height. */
  const firstSend = async (users: TwoUsers) => {
    const sent = await cliInProcess(users.aliceHome, [
      'send',
      '1',
      'STRK',
      users.bobAddress,
      '--yes',
      '--sandbox',
      '--json',
    ]);
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    const wallet = await cliInProcess(users.aliceHome, ['wallet', '--sandbox', '--json']);
    const address = (wallet.doc.wallet as { address: string }).address;
    const latest = { block_id: 'latest' };
    const nonce = await rpc(users.urls.rpcUrl, 'starknet_getNonce', {
      ...latest,
      contract_address: address,
    });
    const height = await rpc(users.urls.rpcUrl, 'starknet_blockNumber', {});
    const balance = await cliInProcess(users.bobHome, ['balance', 'STRK', '--sandbox', '--json']);
    return {
      address,
      nonce: nonce.result,
      height: height.result,
      bobStrk: (balance.doc.balances as Amount[])[0]?.baseUnits,
    };
  };

  it('the second starts from nothing the first held, and the first left nothing running', async () => {
    const idle = handles();
    const idleListeners = listeners();
    const earlier = await startTwoUsers();
    let first: Awaited<ReturnType<typeof firstSend>>;
    try {
      first = await firstSend(earlier);
      // a code asked for on the first sandbox only
      const login = await fetch(`${earlier.urls.serverUrl}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'carol@example.com' }),
      });
      expect(login.status).toBe(200);
    } finally {
      await earlier.close();
    }
    // its servers and their sockets are gone with its run (a socket closes as its peer sees the
    // close: waited for, bounded by the test's timeout), and so are its timers (counted after the
    // wait, whose own timers would count while it runs)
    await vi.waitFor(
      () => {
        const now = handles();
        expect(now.TCPServerWrap).toBeLessThanOrEqual(idle.TCPServerWrap);
        expect(now.TCPSocketWrap).toBeLessThanOrEqual(idle.TCPSocketWrap);
        // the log's exit listeners (pino's, for its last flush, and the batches' hand-over) go
        // when its stream closes, which comes after the run has ended: a full run's busy worker
        // saw them still there at once. No more than before: the worker's earlier files can
        // still hold theirs when this test starts, and they may go during it
        listeners().forEach((count, i) => expect(count).toBeLessThanOrEqual(idleListeners[i]!));
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(handles().Timeout).toBeLessThanOrEqual(idle.Timeout);

    later = await startTwoUsers();
    // the same e-mail, a new wallet; the first's wallet is no contract on the second's chain
    const second = await firstSend(later);
    expect(second.address).not.toBe(first.address);
    const old = await rpc(later.urls.rpcUrl, 'starknet_getNonce', {
      block_id: 'latest',
      contract_address: first.address,
    });
    expect(old.error?.code).toBe(20); // CONTRACT_NOT_FOUND
    // the same first send from the same start: the same nonce, block height and balances
    expect(second.nonce).toBe(first.nonce);
    expect(second.height).toBe(first.height);
    expect(second.bobStrk).toBe(first.bobStrk);
    expect(BigInt(second.bobStrk ?? '0')).toBe(FAUCET_STRK + 10n ** BigInt(STRK.decimals));
    // the outbox: the code asked on the first was never sent by the second
    const outbox = await fetch(
      `${identityUrlOf(later.aliceHome)}/sandbox/outbox/carol%40example.com`,
    );
    expect(outbox.status).toBe(404);
  }, 120_000);
});
