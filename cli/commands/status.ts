/**
 * `finance-tui status [--sandbox] [--json]`: where the client points and whether the aggregator
 * and the auth server answer. A service being down is reported, never a failure (exit 0); only
 * usage and configuration mistakes fail, and Ctrl+C (the command rejects, main says CANCELLED).
 *
 * Only light modules are imported up front, so `--help` and usage errors answer at once; the
 * aggregator client and the stack load once the options parse (see StatusCommandDeps).
 */
import { parseCommandArgs } from '../args.js';
import type { CommandContext, CommandResult, CommandRun } from '../context.js';
import { renderStatus, type StatusView } from '../quote-render.js';
import type { AggregatorClient, AggregatorClientOptions } from '../services/aggregator.js';
import { isCancelled, throwIfCancelled } from '../services/cancel.js';
import type { Endpoints, probeServer, resolveEndpoints } from '../stack.js';
import { ErrorCode, isAppError } from '../../shared/errors.js';
import type { Network } from '../../shared/tokens.js';

export const USAGE = `Usage: finance-tui status [--sandbox] [--json]

Reports the network, and whether the swap aggregator and the auth server answer.
Exits 0 even when a service is down (the report says so).
`;

export interface StatusOptions {
  sandbox: boolean;
  help: boolean;
}

export interface StatusDeps {
  network: Network;
  sandbox: boolean;
  aggregator: AggregatorClient;
  serverUrl: string;
  probeServer: typeof probeServer;
  /** the command's signal: an abort rejects at once instead of being reported as "down" */
  signal?: AbortSignal;
}

export interface StatusResult extends StatusView {
  sandboxError?: string;
}

/** What `run` needs from outside, loaded only once the options parse; tests replace them. */
export interface StatusCommandDeps {
  resolveEndpoints: typeof resolveEndpoints;
  probeServer: typeof probeServer;
  createAggregatorClient: (options: AggregatorClientOptions) => AggregatorClient;
}

export function parseStatusOptions(argv: string[]): StatusOptions {
  const { values } = parseCommandArgs(argv, {}, false);
  return { sandbox: values.sandbox === true, help: values.help === true };
}

export async function runStatus(deps: StatusDeps): Promise<StatusResult> {
  // Both checks take the signal and end at once on an abort: the health check rejects with
  // CANCELLED, the probe answers "cancelled" (probes never throw), hence the check after.
  const [aggregator, server] = await Promise.all([
    deps.aggregator.checkAggregatorHealth().then(
      (health) => ({
        url: deps.aggregator.baseUrl,
        reachable: health.ok,
        status: health.status ?? null,
        message: health.message ?? null,
        ...(health.ok ? {} : { error: `health check answered status ${String(health.status)}` }),
      }),
      (error: unknown) => {
        // Cancelled is not "down": let it through so the command ends as CANCELLED.
        if (isCancelled(error, deps.signal)) throw error;
        return { url: deps.aggregator.baseUrl, reachable: false, error: isAppError(error) ? error.message : 'unexpected error' };
      },
    ),
    deps.probeServer(deps.serverUrl, { signal: deps.signal }).then((probe) => ({ url: deps.serverUrl, ...probe })),
  ]);
  throwIfCancelled(deps.signal);
  return {
    network: deps.network,
    sandbox: deps.sandbox,
    swapsSupported: deps.network === 'mainnet',
    aggregator,
    server,
  };
}

/**
 * `--sandbox` (or `sandbox: true` in settings) when the sandbox can be neither found nor
 * started: report it unavailable. The configured URLs are the real services; probing them
 * would report on something the user did not ask about, under a `sandbox: true` label.
 */
export function sandboxUnavailable(reason: string): StatusResult {
  const error = `the sandbox is not available: ${reason}`;
  return {
    network: 'mainnet',
    sandbox: true,
    swapsSupported: true,
    aggregator: { url: null, reachable: false, error },
    server: { url: null, reachable: false, error },
    sandboxError: reason,
  };
}

/** Usage and configuration mistakes still fail; anything else about reaching services is reported. */
function isCallerMistake(error: unknown): boolean {
  return isAppError(error) && (error.isUsage || error.code === ErrorCode.CONFIG_ERROR);
}

const human = (data: StatusResult) => (): string => `${renderStatus(data)}${data.sandboxError ? `sandbox: ${data.sandboxError}\n` : ''}`;

export async function runStatusCommand(ctx: CommandContext, loadDeps: () => Promise<StatusCommandDeps>): Promise<CommandResult> {
  const opts = parseStatusOptions(ctx.argv);
  if (opts.help) return { data: { usage: USAGE }, human: () => USAGE };
  const deps = await loadDeps();
  let endpoints: Endpoints;
  try {
    endpoints = await deps.resolveEndpoints(ctx, { sandbox: opts.sandbox });
  } catch (error) {
    if (isCallerMistake(error) || isCancelled(error, ctx.signal)) throw error;
    const data = sandboxUnavailable(isAppError(error) ? error.message : 'the sandbox could not be started');
    return { data, human: human(data) };
  }
  try {
    throwIfCancelled(ctx.signal);
    const aggregator = deps.createAggregatorClient({
      baseUrl: endpoints.aggregatorUrl,
      apiKey: endpoints.aggregatorApiKey,
      network: endpoints.network,
      // A status line should come back quickly: one short retry at most.
      timeoutMs: 3000,
      retries: 1,
      signal: ctx.signal,
    });
    const data = await runStatus({
      network: endpoints.network,
      sandbox: endpoints.sandbox,
      aggregator,
      serverUrl: endpoints.serverUrl,
      probeServer: deps.probeServer,
      signal: ctx.signal,
    });
    return { data, human: human(data) };
  } finally {
    await endpoints.release();
  }
}

async function loadDeps(): Promise<StatusCommandDeps> {
  const [{ resolveEndpoints, probeServer }, { createAggregatorClient }] = await Promise.all([import('../stack.js'), import('../services/aggregator.js')]);
  return { resolveEndpoints, probeServer, createAggregatorClient };
}

export const run: CommandRun = (ctx: CommandContext) => runStatusCommand(ctx, loadDeps);
