/**
 * Where the client talks: settings + environment, and — in sandbox mode — the local sandbox
 * stack, found through `<data>/sandbox.json` or started as a child process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, ErrorCode } from '../shared/errors.js';
import { spawnSandbox } from './child.js';
import type { CommandContext } from './context.js';
import { dataDir } from './paths.js';
import type { Network } from '../shared/tokens.js';
import { loadSettings, type Settings } from './settings.js';

export interface Endpoints {
  serverUrl: string;
  aggregatorUrl: string;
  aggregatorApiKey: string | undefined;
  network: Network;
  sandbox: boolean;
  /** the effective settings (file + environment), loaded once per command */
  settings: Settings;
  /** stops a child this process started; a no-op otherwise */
  release(): Promise<void>;
}

export interface ServerProbe {
  reachable: boolean;
  version?: string;
  sandbox?: boolean;
  error?: string;
}

const PROBE_TIMEOUT_MS = 1_500;
const SPAWN_TIMEOUT_MS = 20_000;

/** GET /health then GET / with a short timeout; never throws. An abort reads as "cancelled". */
export async function probeServer(serverUrl: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ServerProbe> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
  try {
    const health = await fetch(new URL('/health', serverUrl), { signal });
    if (!health.ok) return { reachable: false, error: `GET /health answered ${health.status}` };
    const body = (await health.json()) as { status?: unknown };
    if (body.status !== 'ok') return { reachable: false, error: 'GET /health did not say ok' };
    const root = await fetch(new URL('/', serverUrl), { signal });
    const info = root.ok ? ((await root.json()) as { version?: unknown; sandbox?: unknown }) : {};
    return {
      reachable: true,
      ...(typeof info.version === 'string' ? { version: info.version } : {}),
      sandbox: info.sandbox === true,
    };
  } catch (error) {
    if (options.signal?.aborted) return { reachable: false, error: 'cancelled' };
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { reachable: false, error: cause === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `not reachable (${cause})` };
  }
}

interface SandboxFile {
  serverUrl: string;
  identityUrl: string;
  aggregatorUrl: string;
}

function readSandboxFile(dir: string): SandboxFile | undefined {
  try {
    const doc = JSON.parse(readFileSync(join(dir, 'sandbox.json'), 'utf8')) as Partial<SandboxFile>;
    if (typeof doc.serverUrl === 'string' && typeof doc.aggregatorUrl === 'string' && typeof doc.identityUrl === 'string') {
      return doc as SandboxFile;
    }
  } catch {
    // absent or unreadable: no running sandbox known
  }
  return undefined;
}

/** A sandbox answers when both our server and its aggregator emulator answer. */
async function sandboxAlive(doc: SandboxFile, signal: AbortSignal): Promise<boolean> {
  const probe = await probeServer(doc.serverUrl, { signal });
  if (!probe.reachable || probe.sandbox !== true) return false;
  try {
    const res = await fetch(new URL('/healthCheck', doc.aggregatorUrl), { signal: AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]) });
    return res.ok;
  } catch {
    return false;
  }
}

function progress(ctx: CommandContext, line: string): void {
  // docs/architecture.md "Headless output": progress only on stderr and only on a TTY
  if (ctx.stderrIsTTY) ctx.stderr.write(`${line}\n`);
}

/** Find the running sandbox, or start one as a child process for the duration of the command. */
async function sandboxEndpoints(ctx: CommandContext): Promise<{ doc: SandboxFile; release: () => Promise<void> }> {
  const dir = dataDir(ctx.env);
  const existing = readSandboxFile(dir);
  if (existing && (await sandboxAlive(existing, ctx.signal))) return { doc: existing, release: async () => undefined };

  progress(ctx, 'starting the local sandbox…');
  const child = await spawnSandbox({ env: ctx.env, dataDir: dir, timeoutMs: SPAWN_TIMEOUT_MS, signal: ctx.signal });
  const doc = child.ready as unknown as SandboxFile;
  return { doc, release: () => child.stop() };
}

export async function resolveEndpoints(ctx: CommandContext, opts: { sandbox: boolean; network?: Network }): Promise<Endpoints> {
  const settings = loadSettings(ctx.env);
  const sandbox = opts.sandbox || settings.sandbox;
  if (sandbox) {
    if (opts.network === 'sepolia') {
      throw new AppError(ErrorCode.USAGE_ERROR, 'the sandbox is a mainnet-like network; --network sepolia cannot be combined with --sandbox', { status: 400 });
    }
    const { doc, release } = await sandboxEndpoints(ctx);
    return { serverUrl: doc.serverUrl, aggregatorUrl: doc.aggregatorUrl, aggregatorApiKey: undefined, network: 'mainnet', sandbox: true, settings, release };
  }
  return {
    serverUrl: settings.serverUrl,
    aggregatorUrl: settings.aggregatorUrl,
    aggregatorApiKey: settings.aggregatorApiKey,
    network: opts.network ?? settings.network,
    sandbox: false,
    settings,
    release: async () => undefined,
  };
}
