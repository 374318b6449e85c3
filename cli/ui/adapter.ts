/**
 * The real services port: the TUI over the same functions the headless commands use (stack,
 * aggregator client, runQuote, runStatus, settings), plus the auth server's login/verify.
 *
 * Heavy modules (conf, ky, TypeBox, starknet helpers) load inside connect(), after Ink has drawn
 * its first frame. Until the headless core provides persisted sessions, balances, planning and
 * execution, this adapter keeps the session in memory and reports those features as absent
 * (`features`), so the screens say so instead of pretending.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { CommandContext } from '../context.js';
import type { Endpoints } from '../stack.js';
import type { Settings } from '../settings.js';
import { AppError, ErrorCode, type ErrorCode as Code } from '../../shared/errors.js';
import { findToken, listTokens } from '../../shared/tokens.js';
import type { Balances, Call, Environment, Session, SettingsPatch, SettingsView, TuiServices } from './services.js';

const AUTH_TIMEOUT_MS = 15_000;

type Modules = Awaited<ReturnType<typeof loadModules>>;

async function loadModules() {
  const [stack, aggregator, quote, status, settings, paths] = await Promise.all([
    import('../stack.js'),
    import('../services/aggregator.js'),
    import('../commands/quote.js'),
    import('../commands/status.js'),
    import('../settings.js'),
    import('../paths.js'),
  ]);
  return { stack, aggregator, quote, status, settings, paths };
}

/** The auth server's error document → AppError with its code (RATE_LIMITED keeps Retry-After). */
async function authError(response: Response): Promise<AppError> {
  let code: string = ErrorCode.INTERNAL_ERROR;
  let message = `the auth server answered ${response.status}`;
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string') code = body.error.code;
    if (typeof body.error?.message === 'string') message = body.error.message.slice(0, 300);
  } catch {
    // not JSON: keep the status line
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  const details = code === ErrorCode.RATE_LIMITED && Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : undefined;
  const known = (Object.values(ErrorCode) as string[]).includes(code) ? (code as Code) : ErrorCode.INTERNAL_ERROR;
  return new AppError(known, message, { status: response.status, ...(details ? { details } : {}) });
}

async function postJson(url: URL, body: unknown, signal: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.any([signal, AbortSignal.timeout(AUTH_TIMEOUT_MS)]),
    });
  } catch (error) {
    if (signal.aborted) throw new AppError(ErrorCode.CANCELLED, 'cancelled', { status: 499 });
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new AppError(ErrorCode.SERVER_UNREACHABLE, `the auth server at ${url.origin} is not reachable (${cause})`, { status: 503 });
  }
  if (!response.ok) throw await authError(response);
  return response.json();
}

/** The sandbox's other URLs (its mailbox, its chain), from its sandbox.json when it is this sandbox's. */
function sandboxUrls(dir: string, serverUrl: string): { identityUrl?: string; rpcUrl?: string } {
  try {
    const doc = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8')) as { serverUrl?: unknown; identityUrl?: unknown; rpcUrl?: unknown };
    if (doc.serverUrl !== serverUrl) return {};
    return {
      ...(typeof doc.identityUrl === 'string' ? { identityUrl: doc.identityUrl } : {}),
      ...(typeof doc.rpcUrl === 'string' ? { rpcUrl: doc.rpcUrl } : {}),
    };
  } catch {
    return {};
  }
}

export function createServices(options: { env: NodeJS.ProcessEnv; sandbox: boolean }): TuiServices {
  const { env } = options;
  let modules: Modules | undefined;
  let endpoints: Endpoints | undefined;
  let identityUrl: string | undefined;
  let rpcUrl: string | undefined;
  let session: Session | null = null;

  const ready = (): { m: Modules; e: Endpoints } => {
    if (!modules || !endpoints) throw new AppError(ErrorCode.INTERNAL_ERROR, 'not connected yet');
    return { m: modules, e: endpoints };
  };
  const aggregator = (signal: AbortSignal, extra: { timeoutMs?: number; retries?: number } = {}) => {
    const { m, e } = ready();
    return m.aggregator.createAggregatorClient({ baseUrl: e.aggregatorUrl, apiKey: e.aggregatorApiKey, network: e.network, signal, ...extra });
  };
  const view = (s: Settings): SettingsView => ({ slippageBps: s.slippageBps, network: s.network, serverUrl: s.serverUrl, gasToken: 'STRK' });
  const notYet = (what: string): AppError => new AppError(ErrorCode.USAGE_ERROR, `${what} is not in this version`, { status: 400 });

  const services: TuiServices = {
    // balances need a Starknet RPC URL: the sandbox's today (a setting for the real network
    // comes with the core's settings)
    get features() {
      return { balances: rpcUrl !== undefined, trade: false, multiSwap: false, batch: false, send: false, history: false };
    },

    async connect({ signal }: Call): Promise<Environment> {
      modules ??= await loadModules();
      let started = false;
      // the stack reports "starting the local sandbox…" as progress: the TUI shows it instead
      const progress = new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (chunk.toString().includes('starting')) started = true;
          done();
        },
      });
      const ctx: CommandContext = { argv: [], env, stdout: progress, stderr: progress, json: false, stdoutIsTTY: false, stderrIsTTY: true, signal };
      endpoints = await modules.stack.resolveEndpoints(ctx, { sandbox: options.sandbox });
      const dir = modules.paths.dataDir(env);
      if (endpoints.sandbox) ({ identityUrl, rpcUrl } = sandboxUrls(dir, endpoints.serverUrl));
      return {
        sandbox: endpoints.sandbox,
        network: endpoints.network,
        serverUrl: endpoints.serverUrl,
        ...(started ? { startedChild: { what: 'the local sandbox', logFile: join(dir, 'sandbox-child.log') } } : {}),
      };
    },

    async currentSession() {
      return session;
    },

    async requestCode(email, { signal }) {
      await postJson(new URL('/auth/login', ready().e.serverUrl), { email }, signal);
    },

    async verifyCode(email, code, { signal }) {
      const { e } = ready();
      // the Stark curve helpers precompute tables on load: only sign-in needs them
      const [starknet, body] = await Promise.all([
        import('../../shared/starknet.js'),
        postJson(new URL('/auth/verify', e.serverUrl), { email, code }, signal) as Promise<Record<string, unknown>>,
      ]);
      const fields = ['token', 'expiresAt', 'userId', 'walletId', 'walletAddress', 'walletPublicKey'] as const;
      if (!fields.every((f) => typeof body[f] === 'string')) {
        throw new AppError(ErrorCode.INVALID_RESPONSE, 'the auth server answered the sign-in without a session', { status: 502 });
      }
      const address = body.walletAddress as string;
      // docs/architecture.md "Client behaviour": refuse a session whose address is not the
      // account address of its public key
      if (BigInt(starknet.argentAccountAddress(body.walletPublicKey as string)) !== BigInt(address)) {
        throw new AppError(ErrorCode.INVALID_RESPONSE, 'the wallet address the server sent does not belong to its public key; refusing the session', { status: 502 });
      }
      session = {
        email,
        userId: body.userId as string,
        walletId: body.walletId as string,
        walletAddress: address,
        expiresAt: body.expiresAt as string,
        isExisting: body.isExisting === true,
      };
      return session;
    },

    async logout() {
      session = null;
    },

    async balances(current, { signal }): Promise<Balances> {
      const { e } = ready();
      if (rpcUrl === undefined) return { available: false, reason: 'no Starknet RPC URL is configured for this network yet' };
      const [{ createChainReader, readBalances }, { usdCentsAt }] = await Promise.all([import('../core/chain/index.js'), import('../../shared/fees.js')]);
      const reader = createChainReader({ address: current.walletAddress, rpcUrl, network: e.network });
      const held = (await readBalances(reader, { signal })).filter((b) => b.balance > 0n);
      // USD at the aggregator's prices: a route of the whole balance carries its input token's
      // price; a token it cannot route shows "no price" rather than failing the list
      const client = aggregator(signal, { timeoutMs: 5000, retries: 1 });
      const [usdc, eth] = [findToken(e.network, 'USDC'), findToken(e.network, 'ETH')];
      const tokens = await Promise.all(
        held.map(async ({ token, balance }) => {
          const quoteIn = token.address === usdc?.address ? eth : usdc;
          const price = quoteIn === undefined ? undefined : await client.getRoute({ amount: balance, tokenIn: token.address, tokenOut: quoteIn.address }).then((r) => r.inputToken.price, () => undefined);
          return { symbol: token.symbol, decimals: token.decimals, amount: balance, usdCents: usdCentsAt(balance, token.decimals, price) };
        }),
      );
      return { available: true, tokens, totalUsdCents: tokens.reduce((sum, t) => sum + (t.usdCents ?? 0n), 0n), asOf: new Date().toISOString() };
    },

    async quote(request, { signal }) {
      const { m, e } = ready();
      const result = await m.quote.runQuote(
        { pairs: [{ amount: request.amount, from: request.from, to: request.to }], multi: false, slippageBps: request.slippageBps, network: undefined, sandbox: e.sandbox, help: false },
        { client: aggregator(signal), network: e.network, sandbox: e.sandbox, defaultSlippageBps: e.settings.slippageBps },
      );
      const [quote] = result.quotes;
      if (!quote) throw new AppError(ErrorCode.INVALID_RESPONSE, 'no quote in the answer', { status: 502 });
      return quote;
    },

    async plan() {
      throw notYet('signing and sending swaps');
    },
    async execute() {
      throw notYet('signing and sending swaps');
    },
    async history() {
      throw notYet('history');
    },

    async status({ signal }) {
      const { m, e } = ready();
      return m.status.runStatus({
        network: e.network,
        sandbox: e.sandbox,
        aggregator: aggregator(signal, { timeoutMs: 3000, retries: 1 }),
        serverUrl: e.serverUrl,
        probeServer: m.stack.probeServer,
        signal,
      });
    },

    settings() {
      return view(ready().m.settings.loadSettings(env));
    },

    updateSettings(patch: SettingsPatch) {
      const { m } = ready();
      const store = m.settings.openSettingsStore(env);
      const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      const problem = m.settings.settingsProblem({ ...store.store, ...defined });
      if (problem !== undefined) throw new AppError(ErrorCode.CONFIG_ERROR, `not saved: ${problem}`, { status: 400 });
      try {
        store.set(defined);
      } catch (error) {
        throw new AppError(ErrorCode.CONFIG_ERROR, `not saved: ${(error as Error).message}`, { status: 400 });
      }
      return view(m.settings.loadSettings(env));
    },

    async sandboxCode(email, { signal }) {
      if (identityUrl === undefined) throw new AppError(ErrorCode.SERVER_UNREACHABLE, 'the sandbox outbox is not known (no sandbox.json for this sandbox)', { status: 503 });
      const response = await fetch(new URL(`/sandbox/outbox/${encodeURIComponent(email)}`, identityUrl), {
        signal: AbortSignal.any([signal, AbortSignal.timeout(AUTH_TIMEOUT_MS)]),
      });
      if (response.status === 404) return null;
      if (!response.ok) throw new AppError(ErrorCode.SERVER_UNREACHABLE, `the sandbox outbox answered ${response.status}`, { status: 503 });
      const body = (await response.json()) as { code?: unknown };
      return typeof body.code === 'string' ? body.code : null;
    },

    tokens() {
      return listTokens(endpoints?.network ?? 'mainnet').map((t) => ({ symbol: t.symbol, name: t.name, decimals: t.decimals }));
    },

    async close() {
      const release = endpoints?.release;
      endpoints = undefined;
      await release?.();
    },
  };
  return services;
}
