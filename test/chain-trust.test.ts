/**
 * What the chain and the price feed say is checked, not believed (issue 27 items 1 and 2), against
 * hostile proxies on loopback sockets in front of a real sandbox, through the built bin:
 * - an aggregator whose every `price` is divided by 10⁶ (its routes left honest) cannot get a
 *   1 ETH send or a 2 ETH swap past the tool server's `--max-usd 50`;
 * - a chain RPC that rewrites receipts (SUCCEEDED → REVERTED with the events kept, the execution
 *   status removed or unknown, another transaction's hash) gets exit 3 and an unresolved entry
 *   holding the real hash; running the command again is ALREADY_SUBMITTED and nothing is paid
 *   twice.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';
import { close, listen, readBody } from './helpers/http.js';
import { connectMcpInProcess, errorOf, executeCaps, planAndExecute } from './helpers/mcp.js';
import { tempHome } from './helpers/process.js';

const HASH = /^0x[0-9a-f]{64}$/;

/** A proxy to `upstream` (an origin) that may rewrite each JSON answer. */
function proxy(
  upstream: () => string,
  rewrite: (body: unknown, request: unknown) => unknown,
  seen: string[],
): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then(async (body) => {
      seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
      const answer = await fetch(`${upstream()}${req.url ?? '/'}`, {
        method: req.method,
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
      });
      const text = await answer.text();
      let out = text;
      try {
        out = JSON.stringify(rewrite(JSON.parse(text), body === '' ? undefined : JSON.parse(body)));
      } catch {
        // not JSON: as it came
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(out);
    });
  });
}

/** Every `price` field divided by 10⁶, kept as the type it came as. */
function cheapen(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cheapen);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (key !== 'price' || (typeof v !== 'number' && typeof v !== 'string'))
        return [key, cheapen(v)];
      const divided = Number(v) / 1e6;
      return [key, typeof v === 'number' ? divided : String(divided)];
    }),
  );
}

type ReceiptLie = 'reverted' | 'no-status' | 'unknown-status' | 'other-hash' | 'no-hash';
let lie: ReceiptLie = 'reverted';

/** The receipt answers rewritten by `lie`; everything else as it came. */
function lieAboutReceipts(body: unknown, request: unknown): unknown {
  const one = (answer: unknown, asked: unknown): unknown => {
    const method = (asked as { method?: unknown } | undefined)?.method;
    const result = (answer as { result?: Record<string, unknown> }).result;
    if (method !== 'starknet_getTransactionReceipt' || result === undefined) return answer;
    const r = { ...result };
    if (lie === 'reverted' && r.execution_status === 'SUCCEEDED') {
      r.execution_status = 'REVERTED';
      r.revert_reason = 'nothing happened, honest';
    }
    if (lie === 'no-status') delete r.execution_status;
    if (lie === 'unknown-status') r.execution_status = 'PROBABLY_FINE';
    if (lie === 'other-hash') r.transaction_hash = `0x0bad${'0'.repeat(60)}`;
    if (lie === 'no-hash') delete r.transaction_hash;
    return { ...(answer as object), result: r };
  };
  if (Array.isArray(body))
    return body.map((b, i) => one(b, Array.isArray(request) ? request[i] : undefined));
  return one(body, request);
}

describe('checked, not believed: prices and receipts (issue 27 items 1, 2)', () => {
  let users: TwoUsers;
  let aggregatorProxy: Server;
  let rpcProxy: Server;
  let aggregatorProxyUrl: string;
  let rpcProxyUrl: string;
  const aggregatorSeen: string[] = [];
  const rpcSeen: string[] = [];

  beforeAll(async () => {
    users = await startTwoUsers();
    aggregatorProxy = proxy(
      () => new URL(users.urls.aggregatorUrl).origin,
      (body) => cheapen(body),
      aggregatorSeen,
    );
    rpcProxy = proxy(() => new URL(users.urls.rpcUrl).origin, lieAboutReceipts, rpcSeen);
    [aggregatorProxyUrl, rpcProxyUrl] = await Promise.all([
      listen(aggregatorProxy),
      listen(rpcProxy),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([aggregatorProxy, rpcProxy].filter(Boolean).map(close));
    await users?.close();
  });

  /** A data folder signed in as alice whose sandbox.json sends one service through a proxy. */
  function homeThrough(service: 'aggregatorUrl' | 'rpcUrl'): ReturnType<typeof tempHome> {
    const home = tempHome();
    const state = JSON.parse(readFileSync(join(users.aliceHome, 'sandbox.json'), 'utf8')) as Record<
      string,
      string
    >;
    const real = new URL(state[service] ?? '');
    const via = service === 'aggregatorUrl' ? aggregatorProxyUrl : rpcProxyUrl;
    state[service] = `${via}${real.pathname === '/' ? '' : real.pathname}`;
    writeFileSync(join(home.dir, 'sandbox.json'), JSON.stringify(state), { mode: 0o600 });
    copyFileSync(join(users.aliceHome, 'session.json'), join(home.dir, 'session.json'));
    return home;
  }

  const baseUnitsOf = async (home: string, symbol: string): Promise<bigint> => {
    const r = await cliInProcess(home, ['balance', symbol, '--sandbox', '--json']);
    const balances = r.doc.balances as Array<{ symbol: string; baseUnits: string }>;
    return BigInt(balances.find((b) => b.symbol === symbol)?.baseUnits ?? 'x');
  };

  it('prices divided by 10⁶ (routes honest): --max-usd 50 refuses a 1 ETH send and a 2 ETH swap; nothing is signed', async () => {
    const home = homeThrough('aggregatorUrl');
    let client: Client | undefined;
    try {
      const ethBefore = await baseUnitsOf(users.aliceHome, 'ETH');
      // every cap a host without elicitation needs (docs/commands.md "Tool server for AI agents")
      ({ client } = await connectMcpInProcess(
        ['--sandbox', ...executeCaps('1000', users.bobAddress)],
        { FINANCE_TUI_HOME: home.dir },
      ));
      const mcp = client;
      const refusal = async (tool: string, args: Record<string, string>) =>
        errorOf(await planAndExecute(mcp, tool, args));
      aggregatorSeen.length = 0;
      const send = await refusal('plan_send', {
        amount: '1',
        token: 'ETH',
        to: users.bobAddress,
      });
      expect(send.code).toBe('LIMIT_EXCEEDED');
      expect(send.details).toMatchObject({ reason: 'prices-disagree', tokens: ['ETH'] });
      expect(send.message).toMatch(/by what its route pays/);
      const swap = await refusal('plan_trade', { amount: '2', from: 'ETH', to: 'USDC' });
      expect(swap.code).toBe('LIMIT_EXCEEDED');
      expect(swap.details).toMatchObject({ reason: 'prices-disagree', tokens: ['ETH'] });
      // the answers did come through the proxy, and nothing left the account
      expect(aggregatorSeen.length).toBeGreaterThan(0);
      expect(await baseUnitsOf(users.aliceHome, 'ETH')).toBe(ethBefore);
    } finally {
      await client?.close().catch(() => undefined);
      home.cleanup();
    }
  }, 120_000);

  interface Entry {
    hash?: string;
    status: string;
    summary: string;
  }
  const historyOf = (home: string): Entry[] =>
    (JSON.parse(readFileSync(join(home, 'history.json'), 'utf8')) as { entries: Entry[] }).entries;

  /** The receipt of `hash` as the sandbox's own node (no proxy) gives it. */
  const honestReceipt = async (hash: string): Promise<Record<string, unknown>> => {
    const r = await fetch(users.urls.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'starknet_getTransactionReceipt',
        params: { transaction_hash: hash },
      }),
    });
    return ((await r.json()) as { result: Record<string, unknown> }).result;
  };

  it.each([
    ['reverted', 'SUCCEEDED → REVERTED, its events kept'],
    ['no-status', 'execution_status removed'],
    ['unknown-status', 'execution_status unknown'],
    ['other-hash', "another transaction's hash"],
    ['no-hash', 'transaction_hash removed'],
  ] as const)(
    'a receipt rewritten (%s: %s): exit 3, the entry unresolved with the real hash; again: ALREADY_SUBMITTED, paid once',
    async (mode, _what) => {
      lie = mode;
      const home = homeThrough('rpcUrl');
      try {
        // an amount of its own per case, so each case's payment is told apart at bob's
        const cents = {
          reverted: '11',
          'no-status': '12',
          'unknown-status': '13',
          'other-hash': '14',
          'no-hash': '15',
        }[mode];
        const amount = `0.${cents}`;
        const args = ['send', amount, 'USDC', users.bobAddress, '--yes', '--sandbox', '--json'];
        const bobBefore = await baseUnitsOf(users.bobHome, 'USDC');
        const first = await cliInProcess(home.dir, args);
        expect(first.code, first.stdout + first.stderr).toBe(3);
        expect(first.doc.error?.code).toBe('TRANSACTION_PENDING');
        expect(first.doc.error?.message).toMatch(/does not say how it ended/);
        const hash = first.doc.error?.details?.transactionHash as string;
        expect(hash).toMatch(HASH);
        // the hash is the real one: the chain's own node has it, succeeded
        expect(await honestReceipt(hash)).toMatchObject({ execution_status: 'SUCCEEDED' });
        const paid = BigInt(cents) * 10_000n; // 0.xx USDC in base units (6 decimals)
        expect(await baseUnitsOf(users.bobHome, 'USDC')).toBe(bobBefore + paid);
        const entry = historyOf(home.dir).find((e) => e.hash === hash);
        expect(entry).toMatchObject({ hash, status: 'pending' });
        expect(
          historyOf(home.dir).some(
            (e) => e.hash?.startsWith('0x0bad') || /^0x0+$/.test(e.hash ?? ''),
          ),
        ).toBe(false);

        const again = await cliInProcess(home.dir, args);
        expect(again.code).toBe(1);
        expect(again.doc.error?.code).toBe('ALREADY_SUBMITTED');
        expect(again.doc.error?.details?.transactionHash).toBe(hash);
        expect(await baseUnitsOf(users.bobHome, 'USDC')).toBe(bobBefore + paid);
        // history, asking the same lying node, leaves it unresolved
        const listed = await cliInProcess(home.dir, ['history', '--json']);
        expect(listed.doc.entries).toEqual(
          expect.arrayContaining([expect.objectContaining({ hash, status: 'pending' })]),
        );
      } finally {
        home.cleanup();
      }
    },
    120_000,
  );
});
