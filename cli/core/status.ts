/**
 * Where the client points and whether the aggregator and the auth server answer. A service
 * being down is reported, never a failure; only usage and configuration mistakes throw, and
 * cancellation (CANCELLED).
 *
 * Outside the sandbox, an auth server that says it *is* a sandbox (npm run sandbox listens on
 * 3001, the default server URL) is reported as not usable: it is not the configured server.
 */
import { ErrorCode, isAppError } from '../../shared/errors.js';
import { swapsSupported } from './actions/rules.js';
import type { AggregatorClient, AggregatorClientOptions } from '../clients/aggregator.js';
import { isCancelled, throwIfCancelled } from '../clients/cancel.js';
import type { CallOptions } from './call.js';
import type { EndpointOptions, Endpoints, NetworkName } from './endpoints.js';
import type { ServerProbe } from '../clients/probe.js';

export interface StatusResult {
  network: NetworkName;
  sandbox: boolean;
  swapsSupported: boolean;
  /** url null: not known (the sandbox could not be found or started) */
  aggregator: {
    url: string | null;
    reachable: boolean;
    status?: string | number | null;
    message?: string | null;
    error?: string;
  };
  server: {
    url: string | null;
    reachable: boolean;
    usable: boolean;
    version?: string;
    sandbox?: boolean;
    error?: string;
  };
  sandboxError?: string;
}

/** What status needs from outside; tests replace them. */
export interface StatusDeps {
  resolveEndpoints: (
    env: NodeJS.ProcessEnv,
    opts: EndpointOptions,
    call: CallOptions,
  ) => Promise<Endpoints>;
  probeServer: (url: string, options: { signal?: AbortSignal | undefined }) => Promise<ServerProbe>;
  createAggregatorClient: (options: AggregatorClientOptions) => AggregatorClient;
}

export async function loadStatusDeps(): Promise<StatusDeps> {
  const [{ resolveEndpoints }, { probeServer }, { createAggregatorClient }] = await Promise.all([
    import('./endpoints.js'),
    import('../clients/probe.js'),
    import('../clients/aggregator.js'),
  ]);
  return { resolveEndpoints, probeServer, createAggregatorClient };
}

/**
 * `--sandbox` (or `sandbox: true` in settings) when the sandbox can be neither found nor
 * started: report it unavailable. The configured URLs are the real services; probing them
 * would report on something the user did not ask about, under a `sandbox: true` label.
 */
function sandboxUnavailable(reason: string): StatusResult {
  const error = `the sandbox is not available: ${reason}`;
  return {
    network: 'sandbox',
    sandbox: true,
    swapsSupported: true,
    aggregator: { url: null, reachable: false, error },
    server: { url: null, reachable: false, usable: false, error },
    sandboxError: reason,
  };
}

/** Usage and configuration mistakes still fail; anything else about reaching services is reported. */
function isCallerMistake(error: unknown): boolean {
  return isAppError(error) && (error.isUsage || error.code === ErrorCode.CONFIG_ERROR);
}

export async function statusOf(
  endpoints: Endpoints,
  deps: Pick<StatusDeps, 'probeServer' | 'createAggregatorClient'>,
  call: CallOptions = {},
): Promise<StatusResult> {
  const { signal } = call;
  const aggregatorClient = deps.createAggregatorClient({
    baseUrl: endpoints.aggregatorUrl,
    apiKey: endpoints.aggregatorApiKey,
    network: endpoints.network,
    // A status line should come back quickly: one short retry at most.
    timeoutMs: 3000,
    retries: 1,
  });
  // Both checks take the signal and end at once on an abort: the health check rejects with
  // CANCELLED, the probe answers "cancelled" (probes never throw), hence the check after.
  const [aggregator, probe] = await Promise.all([
    aggregatorClient.checkAggregatorHealth({ signal }).then(
      (health) => ({
        url: aggregatorClient.baseUrl,
        reachable: health.ok,
        status: health.status ?? null,
        message: health.message ?? null,
        ...(health.ok ? {} : { error: `health check answered status ${String(health.status)}` }),
      }),
      (error: unknown) => {
        // Cancelled is not "down": let it through so the call ends as CANCELLED.
        if (isCancelled(error, signal)) throw error;
        return {
          url: aggregatorClient.baseUrl,
          reachable: false,
          error: isAppError(error) ? error.message : 'unexpected error',
        };
      },
    ),
    deps.probeServer(endpoints.serverUrl, { signal }),
  ]);
  throwIfCancelled(signal);
  const wrongKind = probe.reachable && !endpoints.sandbox && probe.sandbox === true;
  return {
    network: endpoints.networkName,
    sandbox: endpoints.sandbox,
    swapsSupported: swapsSupported(endpoints.network),
    aggregator,
    server: {
      url: endpoints.serverUrl,
      ...probe,
      usable: probe.reachable && !wrongKind,
      ...(wrongKind
        ? {
            error:
              'a sandbox answers at this URL, not the configured auth server (use the sandbox, or stop the sandbox / set FINANCE_TUI_SERVER_URL)',
          }
        : {}),
    },
  };
}

/** Resolve the endpoints (finding or starting the sandbox when asked), report, release. */
export async function status(
  env: NodeJS.ProcessEnv,
  opts: { sandbox?: boolean },
  call: CallOptions = {},
  deps?: StatusDeps,
): Promise<StatusResult> {
  const d = deps ?? (await loadStatusDeps());
  let endpoints: Endpoints;
  try {
    endpoints = await d.resolveEndpoints(env, { sandbox: opts.sandbox === true }, call);
  } catch (error) {
    if (isCallerMistake(error) || isCancelled(error, call.signal)) throw error;
    return sandboxUnavailable(
      isAppError(error) ? error.message : 'the sandbox could not be started',
    );
  }
  try {
    throwIfCancelled(call.signal);
    return await statusOf(endpoints, d, call);
  } finally {
    await endpoints.release();
  }
}
