/**
 * The client trusts nothing from outside (docs/architecture.md "Client behaviour"), against
 * hostile servers on loopback sockets and the built bin:
 * - no request follows a redirect: the Location's origin (another local server) receives
 *   nothing — not the aggregator's API key, not the e-mail and code of a verify;
 * - a response that sends its headers and then drips is cut at the one deadline for the whole
 *   answer, with the timeout's code, and its connection is closed;
 * - outside text (pool and token names, error messages, revert reasons) reaches no face and no
 *   file with an escape sequence, a carriage return or a bidi override in it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildAggregatorEmulator } from '../sandbox/aggregator/app.js';
import { createAggregatorClient } from '../cli/clients/aggregator.js';
import { createAuthClient } from '../cli/clients/auth-client.js';
import { createChainReader } from '../cli/core/chain/account.js';
import { paymasterRefusal } from '../cli/core/chain/errors.js';
import { type PreparedExecution, toExecutionReceipt } from '../cli/core/chain/execute.js';
import { scopedFetch } from '../cli/core/chain/fetch.js';
import { readBalances } from '../cli/core/chain/reads.js';
import { openHistory, trackTransaction } from '../cli/core/history.js';
import { quote, quoteDeps } from '../cli/core/quote.js';
import type { Endpoints } from '../cli/core/endpoints.js';
import { AppError, ErrorCode } from '../shared/errors.js';
import { resolveToken } from '../shared/tokens.js';
import { failure } from './helpers/failure.js';
import { close, listen, readBody } from './helpers/http.js';
import { cleanEnv, runBin, tempHome } from './helpers/process.js';

const ETH = resolveToken('mainnet', 'ETH').address;
const USDC = resolveToken('mainnet', 'USDC').address;
const API_KEY = 'agg-key-never-elsewhere-7f3a';
const ACCOUNT = `0x${'1'.padStart(64, '0')}`;

/** Terminal control a hostile service puts in its text: clear screen, OSC title, CR, bidi override, and friends. */
const HOSTILE =
  'Pool\u001b[2J\u001b[H\u001b]0;pwned\u0007 A\rB\u202Eevil\u2066x\u2069\u200b\u009b31m\u0000end';
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex -- the test looks for exactly these characters
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Every string anywhere in `value`. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (typeof value === 'object' && value !== null)
    Object.values(value).forEach((v) => strings(v, out));
  return out;
}

// ---- the servers ----------------------------------------------------------------------------

/** Another origin: must never be reached by a redirected request. */
const targetHits: Seen[] = [];
let target: Server;
let targetUrl: string;

/** What the hostile server does with the next request. */
type Behaviour =
  | { kind: 'redirect'; status: number }
  | { kind: 'drip'; status?: number }
  | { kind: 'proxy-escapes' }
  | { kind: 'no-route' }
  | { kind: 'rpc-error' }
  | { kind: 'login-escapes' };
let behaviour: Behaviour = { kind: 'proxy-escapes' };
const hostileHits: Seen[] = [];
/** one per dripping answer: resolved when its socket is closed (by the client) */
const dripsClosed: Array<Promise<void>> = [];
const allDripsClosed = (): Promise<void[]> => Promise.all(dripsClosed);
let hostile: Server;
let hostileUrl: string;

let emulator: FastifyInstance;
let emulatorUrl: string;

/** Every `poolName` and token `name` replaced by hostile text. */
function poison(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(poison);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === 'poolName' || key === 'name' ? `${HOSTILE} ${String(v)}` : poison(v),
    ]),
  );
}

async function answer(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
  hostileHits.push({ method: req.method, url: req.url, headers: req.headers, body });
  switch (behaviour.kind) {
    case 'redirect':
      res.writeHead(behaviour.status, { location: `${targetUrl}${req.url ?? '/'}` }).end();
      return;
    case 'drip': {
      res.writeHead(behaviour.status ?? 200, { 'content-type': 'application/json' });
      res.write('{"a":"');
      const timer = setInterval(() => res.write('x'), 25);
      dripsClosed.push(
        new Promise((resolve) =>
          req.socket.once('close', () => {
            clearInterval(timer);
            resolve();
          }),
        ),
      );
      return;
    }
    case 'no-route':
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ success: false, errorMessage: HOSTILE }));
      return;
    case 'login-escapes':
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ success: true, message: `code sent ${HOSTILE}` }));
      return;
    case 'rpc-error': {
      const { id } = JSON.parse(body) as { id?: unknown };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          error: { code: 40, message: HOSTILE, data: HOSTILE },
        }),
      );
      return;
    }
    case 'proxy-escapes': {
      const upstream = await fetch(`${emulatorUrl}${req.url ?? '/'}`);
      const text = JSON.stringify(poison(JSON.parse(await upstream.text())));
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
      return;
    }
  }
}

beforeAll(async () => {
  target = createServer((req, res) => {
    void readBody(req).then((body) => {
      targetHits.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  targetUrl = await listen(target);
  hostile = createServer((req, res) => {
    void readBody(req).then((body) => answer(req, res, body));
  });
  hostileUrl = await listen(hostile);
  emulator = await buildAggregatorEmulator();
  emulatorUrl = await emulator.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await Promise.all([close(hostile), close(target), emulator.close()]);
});
afterEach(() => {
  targetHits.length = 0;
  hostileHits.length = 0;
  dripsClosed.length = 0;
});

const aggregator = (options: { timeoutMs?: number; retries?: number } = {}) =>
  createAggregatorClient({
    baseUrl: hostileUrl,
    apiKey: API_KEY,
    network: 'mainnet',
    retries: 2,
    backoff: { baseMs: 1, maxMs: 5 },
    ...options,
  });

const home = tempHome();
afterAll(() => home.cleanup());
const cliEnv = (extra: Record<string, string> = {}) =>
  cleanEnv({
    FINANCE_TUI_HOME: home.dir,
    FINANCE_TUI_AGGREGATOR_URL: hostileUrl,
    FINANCE_TUI_AGGREGATOR_API_KEY: API_KEY,
    FINANCE_TUI_SERVER_URL: 'http://127.0.0.1:9',
    ...extra,
  });

// ---- redirects --------------------------------------------------------------------------------

describe('no client request follows a redirect', () => {
  it('quote (built bin): an aggregator answering 302 to another origin is INVALID_RESPONSE; the other origin gets nothing, not the API key', async () => {
    behaviour = { kind: 'redirect', status: 302 };
    const r = await runBin(['quote', '1', 'ETH', 'USDC', '--json'], cliEnv());
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      error: { code: string; message: string; details?: Record<string, unknown> };
    };
    expect(doc.error.code).toBe('INVALID_RESPONSE');
    expect(doc.error.message).toMatch(/redirect \(HTTP 302\), which was refused/);
    expect(doc.error.details).toMatchObject({ status: 302, redirect: true });
    // the key went where it was configured to go, once (a redirect is not retried) …
    expect(hostileHits.map((h) => h.headers['x-api-key'])).toEqual([API_KEY]);
    // … and nowhere else
    expect(targetHits).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain(API_KEY);
  });

  it.each([301, 302, 303, 307, 308])(
    'the aggregator client refuses HTTP %i without a retry',
    async (status) => {
      behaviour = { kind: 'redirect', status };
      const error = await failure(
        aggregator().getRoute({ amount: 10n ** 18n, tokenIn: ETH, tokenOut: USDC }),
      );
      expect(error).toMatchObject({
        code: 'INVALID_RESPONSE',
        details: { status, redirect: true },
      });
      expect(hostileHits).toHaveLength(1);
      expect(targetHits).toEqual([]);
    },
  );

  it('the auth client: a 307 on /auth/verify does not re-post the e-mail and code elsewhere', async () => {
    behaviour = { kind: 'redirect', status: 307 };
    const error = await failure(
      createAuthClient({ serverUrl: hostileUrl }).verify('victim@example.com', '123456'),
    );
    expect(error).toMatchObject({
      code: 'INVALID_RESPONSE',
      details: { status: 307, redirect: true },
    });
    expect(hostileHits).toHaveLength(1);
    expect(hostileHits[0]?.body).toContain('victim@example.com');
    expect(targetHits).toEqual([]);
    expect(error.message).not.toContain('123456');
  });

  it('the chain and paymaster fetch: a redirect is refused, naming it, and the target gets nothing', async () => {
    behaviour = { kind: 'redirect', status: 307 };
    const fetchLike = scopedFetch({
      service: 'server',
      timeoutMs: 2_000,
      maxResponseBytes: 65_536,
    });
    const error = (await fetchLike(`${hostileUrl}/paymaster`, {
      method: 'POST',
      body: '{"jsonrpc":"2.0","id":1,"method":"paymaster_isAvailable"}',
    }).catch((e: unknown) => e)) as AppError;
    expect(error).toMatchObject({
      code: 'SERVER_UNREACHABLE',
      details: { status: 307, redirect: true },
    });
    expect(targetHits).toEqual([]);
  });
});

// ---- dripping answers -------------------------------------------------------------------------

describe('one deadline for the whole answer, body included', () => {
  it('the aggregator client: headers, then a byte every 25 ms → the timeout code, and the socket is closed', async () => {
    behaviour = { kind: 'drip' };
    const error = await failure(
      aggregator({ timeoutMs: 300, retries: 0 }).getRoute({
        amount: 10n ** 18n,
        tokenIn: ETH,
        tokenOut: USDC,
      }),
    );
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', details: { timedOut: true } });
    expect(error.message).toMatch(/timed out after 300 ms/);
    await allDripsClosed();
  });

  it('the auth client: a dripping error body ends the same way (the deadline covers error answers too)', async () => {
    behaviour = { kind: 'drip', status: 200 };
    const error = await failure(
      createAuthClient({ serverUrl: hostileUrl, timeoutMs: 300, retries: 0 }).login(
        'a@example.com',
      ),
    );
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', details: { timedOut: true } });
    await allDripsClosed();
    behaviour = { kind: 'drip', status: 503 };
    const again = await failure(
      createAuthClient({ serverUrl: hostileUrl, timeoutMs: 300, retries: 0 }).login(
        'a@example.com',
      ),
    );
    expect(again.code).toBe('NETWORK_ERROR');
    await allDripsClosed();
  });

  it('a GET whose body drips is retried like any timeout, with a fresh deadline; each dripping socket is closed', async () => {
    behaviour = { kind: 'drip' };
    const error = await failure(aggregator({ timeoutMs: 200, retries: 1 }).checkAggregatorHealth());
    expect(error).toMatchObject({
      code: 'NETWORK_ERROR',
      details: { timedOut: true, attempts: 2 },
    });
    expect(hostileHits).toHaveLength(2);
    expect(dripsClosed).toHaveLength(2);
    await allDripsClosed();
  });

  it('the chain fetch: the same drip is CHAIN_UNREACHABLE (timed out), the socket closed', async () => {
    behaviour = { kind: 'drip' };
    const fetchLike = scopedFetch({ service: 'chain', timeoutMs: 300, maxResponseBytes: 65_536 });
    const error = (await fetchLike(`${hostileUrl}/rpc`, {
      method: 'POST',
      body: '{"jsonrpc":"2.0","id":1,"method":"starknet_chainId"}',
    }).catch((e: unknown) => e)) as AppError;
    expect(error).toMatchObject({ code: 'CHAIN_UNREACHABLE', details: { timedOut: true } });
    await allDripsClosed();
  });
});

// ---- escape sequences -------------------------------------------------------------------------

describe('outside text is made printable where it enters', () => {
  it('quote (built bin), human and --json: the hostile pool names show, without a control character', async () => {
    behaviour = { kind: 'proxy-escapes' };
    const human = await runBin(['quote', '1', 'ETH', 'USDC'], cliEnv());
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Pool');
    expect(human.stdout).toContain('evil');
    expect(human.stdout.replaceAll('\n', '')).not.toMatch(UNPRINTABLE);
    expect(human.stderr).toBe('');

    const json = await runBin(['quote', '1', 'ETH', 'USDC', '--json'], cliEnv());
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as unknown;
    const all = strings(doc);
    expect(all.some((s) => s.includes('Pool') && s.includes('evil'))).toBe(true);
    for (const s of all) expect(s).not.toMatch(UNPRINTABLE);
  });

  it("what the app's quote screen gets (the core's QuoteResult): every string printable", async () => {
    behaviour = { kind: 'proxy-escapes' };
    const endpoints = {
      aggregatorUrl: hostileUrl,
      aggregatorApiKey: API_KEY,
      network: 'mainnet',
      networkName: 'mainnet',
      sandbox: false,
      settings: { slippageBps: 100 },
    } as unknown as Endpoints;
    const result = await quote(
      { pairs: [{ amount: '1', from: 'ETH', to: 'USDC' }], multi: false },
      quoteDeps(endpoints),
    );
    const all = strings(result);
    expect(all.some((s) => s.includes('evil'))).toBe(true);
    for (const s of all) expect(s).not.toMatch(UNPRINTABLE);
  });

  it("quote (built bin): the aggregator's no-route message, human and --json, is one clean line", async () => {
    behaviour = { kind: 'no-route' };
    const human = await runBin(['quote', '1', 'ETH', 'USDC'], cliEnv());
    expect(human.stderr).toContain('evil');
    expect(human.stderr).toContain('(NO_ROUTE_FOUND)');
    expect(human.stderr.trimEnd()).not.toMatch(UNPRINTABLE);
    const json = await runBin(['quote', '1', 'ETH', 'USDC', '--json'], cliEnv());
    const doc = JSON.parse(json.stdout) as { error: { code: string; message: string } };
    expect(doc.error.code).toBe('NO_ROUTE_FOUND');
    expect(doc.error.message).not.toMatch(UNPRINTABLE);
  });

  it("a Starknet node's error message (a real RpcProvider over the socket) is printable in CHAIN_ERROR", async () => {
    behaviour = { kind: 'rpc-error' };
    const reader = createChainReader({
      address: ACCOUNT,
      rpcUrl: `${hostileUrl}/rpc`,
      requestTimeoutMs: 2_000,
    });
    const error = await failure(readBalances(reader, { tokens: [resolveToken('mainnet', 'ETH')] }));
    expect(error.code).toBe('CHAIN_ERROR');
    expect(error.message).toContain('evil');
    expect(error.message).not.toMatch(UNPRINTABLE);
  });

  it("our server's own words (a login answer's message) are printable", async () => {
    behaviour = { kind: 'login-escapes' };
    const answer = await createAuthClient({ serverUrl: hostileUrl }).login('a@example.com');
    expect(answer.message).toContain('evil');
    expect(answer.message).not.toMatch(UNPRINTABLE);
  });

  it("the paymaster's refusal text is printable", () => {
    const error = paymasterRefusal({ code: 156, message: HOSTILE, data: HOSTILE });
    for (const s of [error.message, ...strings(error.details)]) expect(s).not.toMatch(UNPRINTABLE);
  });

  it('a revert reason with escapes is stored clean in the history file', async () => {
    const prepared = {
      account: ACCOUNT,
      kind: 'invoke',
      fee: { mode: 'sponsored' },
    } as unknown as PreparedExecution;
    const receipt = toExecutionReceipt(
      {
        transaction_hash: '0xabc',
        execution_status: 'REVERTED',
        revert_reason: `Failure reason: ${HOSTILE}`,
      },
      prepared,
      'mainnet',
    );
    expect(receipt.revertReason).toContain('evil');
    expect(receipt.revertReason).not.toMatch(UNPRINTABLE);
    const dir = tempHome();
    try {
      const history = openHistory(dir.dir);
      const track = trackTransaction(history, {
        kind: 'send',
        network: 'mainnet',
        sandbox: false,
        account: ACCOUNT,
        summary: 'send 1 STRK',
        amounts: [],
      });
      track.submitted(receipt.transactionHash);
      await track.failed(
        new AppError(ErrorCode.TRANSACTION_REVERTED, 'reverted', {
          details: { transactionHash: receipt.transactionHash, revertReason: receipt.revertReason },
        }),
      );
      const file = JSON.parse(readFileSync(join(dir.dir, 'history.json'), 'utf8')) as {
        entries: Array<{ status: string; revertReason?: string }>;
      };
      expect(file.entries[0]?.status).toBe('reverted');
      expect(file.entries[0]?.revertReason).toContain('evil');
      expect(file.entries[0]?.revertReason).not.toMatch(UNPRINTABLE);
    } finally {
      dir.cleanup();
    }
  });

  it('history (built bin) written raw by an older version lists clean, human and --json', async () => {
    const dir = tempHome();
    try {
      const entry = {
        time: '2026-11-20T10:00:00.000Z',
        updatedAt: '2026-11-20T10:00:00.000Z',
        kind: 'trade',
        network: 'mainnet',
        sandbox: false,
        account: ACCOUNT,
        hash: '0xabc',
        status: 'reverted',
        summary: `trade ${HOSTILE}`,
        amounts: [],
        revertReason: `Execution failed. Failure reason: ${HOSTILE}`,
      };
      writeFileSync(
        join(dir.dir, 'history.json'),
        JSON.stringify({ version: 1, entries: [entry] }),
        { mode: 0o600 },
      );
      const env = cleanEnv({ FINANCE_TUI_HOME: dir.dir });
      const human = await runBin(['history'], env);
      expect(human.code).toBe(0);
      expect(human.stdout).toContain('evil');
      expect(human.stdout.replaceAll('\n', '')).not.toMatch(UNPRINTABLE);
      const json = await runBin(['history', '--json'], env);
      const all = strings(JSON.parse(json.stdout));
      expect(all.some((s) => s.includes('evil'))).toBe(true);
      for (const s of all) expect(s).not.toMatch(UNPRINTABLE);
    } finally {
      dir.cleanup();
    }
  });
});

// ---- plain http to another machine ------------------------------------------------------------

describe('plain http only to this machine (issue 27 item 8)', () => {
  /** A listener on every interface, reached as http://0.0.0.0:<port>: not a loopback URL. */
  let open: Server;
  const openHits: Seen[] = [];
  let port: number;
  beforeAll(async () => {
    open = createServer((req, res) => {
      void readBody(req).then((body) => {
        openHits.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => open.listen(0, '0.0.0.0', resolve));
    port = (open.address() as AddressInfo).port;
  });
  afterAll(() => close(open));
  afterEach(() => {
    openHits.length = 0;
  });

  it.each([
    ['FINANCE_TUI_SERVER_URL', ['login', 'victim@example.com', '--json']],
    ['FINANCE_TUI_AGGREGATOR_URL', ['quote', '1', 'ETH', 'USDC', '--json']],
    ['FINANCE_TUI_RPC_URL', ['status', '--json']],
  ])(
    '%s=http://<not loopback> (built bin): CONFIG_ERROR saying https is required; nothing reaches it',
    async (name, args) => {
      const dir = tempHome();
      try {
        const r = await runBin(
          args,
          cleanEnv({
            FINANCE_TUI_HOME: dir.dir,
            FINANCE_TUI_SERVER_URL: 'http://127.0.0.1:9',
            [name]: `http://0.0.0.0:${port}`,
          }),
        );
        expect(r.code).toBe(1);
        const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string } };
        expect(error.code).toBe('CONFIG_ERROR');
        expect(error.message).toContain(`${name} must be an https URL`);
        expect(error.message).toMatch(/only to this machine/);
        expect(openHits).toEqual([]);
      } finally {
        dir.cleanup();
      }
    },
  );

  it('a saved serverUrl of plain http to another machine is refused too (settings.json)', async () => {
    const dir = tempHome();
    try {
      writeFileSync(
        join(dir.dir, 'settings.json'),
        JSON.stringify({
          serverUrl: `http://0.0.0.0:${port}`,
          aggregatorUrl: 'https://api.fibrous.finance/starknet',
          network: 'mainnet',
          sandbox: false,
          slippageBps: 100,
        }),
        { mode: 0o600 },
      );
      const r = await runBin(
        ['login', 'victim@example.com', '--json'],
        cleanEnv({ FINANCE_TUI_HOME: dir.dir }),
      );
      const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string } };
      expect(error.code).toBe('CONFIG_ERROR');
      expect(error.message).toContain('serverUrl must be an https URL');
      expect(openHits).toEqual([]);
    } finally {
      dir.cleanup();
    }
  });
});
