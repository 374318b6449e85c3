/**
 * Where the client talks: settings + environment, and — in sandbox mode — the local sandbox
 * stack, found through `<data>/sandbox.json` or started as a child process.
 */
import { AppError, cancelledError, ErrorCode } from '../../shared/errors.js';
import type { Network } from '../../shared/tokens.js';
import { readSandboxState, sandboxState, type SandboxState } from '../platform/sandbox-state.js';
import { processAlive } from '../../shared/fs.js';
import type { Stoppable } from '../platform/child-registry.js';
import { dataDir } from '../platform/paths.js';
import { loadSettings, type Settings } from '../platform/settings.js';
import type { CallOptions } from './call.js';
import type { Session } from './session.js';
import { probeServer } from '../clients/probe.js';
import { createHttpClient } from '../clients/http.js';

/** What output calls the network: a sandbox is shaped like a network (its registry, rules) but is never called it. */
export type NetworkName = Network | 'sandbox';

export interface Endpoints {
  /** our auth server */
  serverUrl: string;
  aggregatorUrl: string;
  aggregatorApiKey: string | undefined;
  /**
   * the token registry, deployments and rules: in the sandbox, the network the running sandbox is
   * shaped like, as its sandbox.json says (cli/platform/sandbox-state.ts)
   */
  network: Network;
  /** what screens and --json documents say: 'sandbox' when the sandbox is on */
  networkName: NetworkName;
  sandbox: boolean;
  /** the sandbox's identity-provider emulator (its outbox); sandbox only */
  identityUrl: string | undefined;
  /** Starknet JSON-RPC for reads; undefined = starknet.js's public node for the network */
  rpcUrl: string | undefined;
  /** the sandbox's paymaster emulator, when its sandbox.json names one */
  paymasterUrl: string | undefined;
  /** the running sandbox chain's id (each start is a new chain): which history entries are its */
  chainInstance?: string | undefined;
  /**
   * set when no sandbox was running and one was started for this command only: a new, empty
   * chain. `previousChain` is the chain of the sandbox that last ran in this data folder (gone
   * now, with its balances and positions), null when none had (docs/commands.md "Sandbox").
   */
  sandboxStarted?: { previousChain: string | null } | undefined;
  /** gas token symbol when gas is not sponsored */
  gasToken: string;
  /** the effective settings (file + environment), loaded once */
  settings: Settings;
  /** the environment the endpoints came from: children (serve) are started with it */
  env: NodeJS.ProcessEnv;
  dataDir: string;
  /** sandbox: when its auth server was last seen answering (epoch ms): ensureAuthServer asks again only later */
  serverSeenAt?: number;
  /** children started for these endpoints (the sandbox, the auth server); release stops them */
  children: Stoppable[];
  /**
   * an agent grant standing in for the session (`mcp --grant FILE`, cli/core/grants.ts): when
   * set, requireSession returns it and the person's session file is never read
   */
  grant?: Session | undefined;
  release(): Promise<void>;
}

export interface EndpointOptions {
  /** --sandbox (settings and FINANCE_TUI_SANDBOX=1 turn it on too) */
  sandbox?: boolean;
  /**
   * --network. With the sandbox: the shape the sandbox must have (a running one of another shape
   * is refused; one started for the command is started with it); absent, whatever runs
   */
  network?: Network;
  /**
   * Only a sandbox that is already running will do (login, verify, outbox): a sandbox started
   * for one command takes its outbox with it when the command ends, so a code sent there could
   * never be read or used.
   */
  runningSandboxOnly?: boolean;
}

const SPAWN_TIMEOUT_MS = 20_000;

/** The chain of the sandbox the data folder's sandbox.json names (the last started there), if any. */
export function lastSandboxChain(
  env: NodeJS.ProcessEnv,
): { chainInstance: string; rpcUrl: string } | undefined {
  const doc = readSandboxState(env);
  if (doc?.chainInstance === undefined || doc.rpcUrl === undefined) return undefined;
  return { chainInstance: doc.chainInstance, rpcUrl: doc.rpcUrl };
}

/** The server URL the data folder's sandbox.json names (the sandbox that last started there), if any. */
export function runningSandboxServerUrl(env: NodeJS.ProcessEnv): string | undefined {
  return readSandboxState(env)?.serverUrl;
}

/**
 * A sandbox answers when our server answers saying it is a sandbox, and its aggregator emulator
 * answers too (asked at once, since every --sandbox command waits for this before its own work).
 * When the process that wrote sandbox.json still runs, the server's answer is enough and the
 * aggregator is not asked: the emulators live in that process, and its ports cannot be another
 * sandbox's while it holds them (on its way out it closes the server first).
 */
async function sandboxAlive(doc: SandboxState, signal: AbortSignal | undefined): Promise<boolean> {
  const aggregator = processAlive(doc.pid)
    ? true
    : createHttpClient({
        baseUrl: doc.aggregatorUrl,
        service: 'aggregator emulator',
        timeoutMs: 1_500,
        retries: 0,
      })
        .get('healthCheck', { signal })
        .then(
          () => true,
          () => false,
        );
  const [probe, answered] = await Promise.all([probeServer(doc.serverUrl, { signal }), aggregator]);
  return answered && probe.reachable && probe.sandbox === true;
}

/** Find the running sandbox, or start one as a child process for the duration of the command. */
async function sandboxEndpoints(
  env: NodeJS.ProcessEnv,
  dir: string,
  runningOnly: boolean,
  call: CallOptions,
  network: Network | undefined,
): Promise<{ doc: SandboxState; child?: Stoppable; previousChain?: string | null }> {
  const existing = readSandboxState(env);
  if (existing && (await sandboxAlive(existing, call.signal))) {
    const shape = sandboxNetwork(existing);
    if (network !== undefined && network !== shape)
      throw new AppError(
        ErrorCode.USAGE_ERROR,
        `the running sandbox is shaped like ${shape}, not ${network}: stop it and start one shaped like ${network}, or leave the network out`,
        { details: { sandboxNetwork: shape, requested: network } },
      );
    return { doc: existing };
  }
  if (call.signal?.aborted) throw cancelledError(call.signal.reason);
  if (runningOnly) {
    throw new AppError(
      ErrorCode.SERVER_UNREACHABLE,
      'no sandbox is running, and one started just for this command would take its state (the sign-in codes in its outbox, the chain and its clock) with it',
      // a sandbox kept running in another terminal: each face words how (cli/core/remedy.ts)
      { details: { remedy: ['start-sandbox'] } },
    );
  }
  call.onProgress?.({ kind: 'sandbox-start' });
  // loaded only to start one: a command on a running sandbox (or none) never needs
  // child_process and readline (docs/benchmarks.md "Issue 35")
  const { spawnSandbox } = await import('../platform/child.js');
  const child = await spawnSandbox({
    env,
    dataDir: dir,
    timeoutMs: SPAWN_TIMEOUT_MS,
    signal: call.signal ?? new AbortController().signal,
    network,
  });
  const doc = sandboxState(child.ready);
  if (doc === undefined) {
    await child.stop();
    throw new AppError(
      ErrorCode.SERVER_UNREACHABLE,
      'the sandbox started but its ready line did not name its URLs',
    );
  }
  return { doc, child, previousChain: existing?.chainInstance ?? null };
}

/** The network a sandbox is shaped like: its state says; a state without one is mainnet's (the only shape before). */
function sandboxNetwork(doc: SandboxState): Network {
  return doc.network ?? 'mainnet';
}

function releaser(children: Stoppable[]): () => Promise<void> {
  return async () => {
    const all = children.splice(0);
    await Promise.allSettled(all.map((child) => child.stop()));
  };
}

export async function resolveEndpoints(
  env: NodeJS.ProcessEnv,
  opts: EndpointOptions = {},
  call: CallOptions = {},
): Promise<Endpoints> {
  const settings = loadSettings(env);
  const dir = dataDir(env);
  const sandbox = opts.sandbox === true || settings.sandbox;
  const children: Stoppable[] = [];
  const common = {
    settings,
    env,
    dataDir: dir,
    children,
    release: releaser(children),
    gasToken: settings.gasToken,
  };
  if (sandbox) {
    const { doc, child, previousChain } = await sandboxEndpoints(
      env,
      dir,
      opts.runningSandboxOnly === true,
      call,
      opts.network,
    );
    if (child) children.push(child);
    return {
      ...common,
      serverUrl: doc.serverUrl,
      aggregatorUrl: doc.aggregatorUrl,
      aggregatorApiKey: undefined,
      network: sandboxNetwork(doc),
      networkName: 'sandbox',
      sandbox: true,
      // it answered (or was started, and said ready) just now
      serverSeenAt: Date.now(),
      identityUrl: doc.identityUrl,
      // checked by its schema (sandbox-state.ts), the chain id's pattern included
      rpcUrl: doc.rpcUrl,
      paymasterUrl: doc.paymasterUrl,
      chainInstance: doc.chainInstance,
      ...(child === undefined ? {} : { sandboxStarted: { previousChain: previousChain ?? null } }),
    };
  }
  const network = opts.network ?? settings.network;
  return {
    ...common,
    serverUrl: settings.serverUrl,
    aggregatorUrl: settings.aggregatorUrl,
    aggregatorApiKey: settings.aggregatorApiKey,
    network,
    networkName: network,
    sandbox: false,
    identityUrl: undefined,
    rpcUrl: settings.rpcUrl,
    paymasterUrl: undefined,
  };
}
