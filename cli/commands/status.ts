/**
 * `finance-tui status [--sandbox] [--json]`: where the client points and whether the aggregator
 * and the auth server answer. A service being down is reported, never a failure (exit 0); only
 * usage and configuration mistakes fail.
 */
import { parseCommandArgs } from '../args.js';
import type { CommandContext, CommandRun } from '../context.js';
import { renderStatus, type StatusView } from '../quote-render.js';
import { type AggregatorClient, createAggregatorClient } from '../services/aggregator.js';
import { loadSettings } from '../settings.js';
import { type Endpoints, probeServer, resolveEndpoints } from '../stack.js';
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
  /** why the sandbox could not be reached or started, when it could not */
  sandboxError?: string;
}

export interface StatusResult extends StatusView {
  sandboxError?: string;
}

export function parseStatusOptions(argv: string[]): StatusOptions {
  const { values } = parseCommandArgs(argv, {}, false);
  return { sandbox: values.sandbox === true, help: values.help === true };
}

export async function runStatus(deps: StatusDeps): Promise<StatusResult> {
  const [aggregator, server] = await Promise.all([
    deps.aggregator.checkAggregatorHealth().then(
      (health) => ({
        url: deps.aggregator.baseUrl,
        reachable: health.ok,
        status: health.status ?? null,
        message: health.message ?? null,
        ...(health.ok ? {} : { error: `health check answered status ${String(health.status)}` }),
      }),
      (error: unknown) => ({
        url: deps.aggregator.baseUrl,
        reachable: false,
        error: isAppError(error) ? error.message : 'unexpected error',
      }),
    ),
    deps.probeServer(deps.serverUrl).then((probe) => ({ url: deps.serverUrl, ...probe })),
  ]);
  return {
    network: deps.network,
    sandbox: deps.sandbox,
    swapsSupported: deps.network === 'mainnet',
    aggregator,
    server,
    ...(deps.sandboxError ? { sandboxError: deps.sandboxError } : {}),
  };
}

/** Usage and configuration mistakes still fail; anything else about reaching services is reported. */
function isCallerMistake(error: unknown): boolean {
  return isAppError(error) && (error.isUsage || error.code === ErrorCode.CONFIG_ERROR);
}

export const run: CommandRun = async (ctx: CommandContext) => {
  const opts = parseStatusOptions(ctx.argv);
  if (opts.help) {
    ctx.stdout.write(USAGE);
    return undefined;
  }
  const settings = loadSettings(ctx.env);
  let endpoints: Endpoints;
  let sandboxError: string | undefined;
  try {
    endpoints = await resolveEndpoints(ctx, { sandbox: opts.sandbox });
  } catch (error) {
    if (isCallerMistake(error)) throw error;
    // The sandbox could not be found or started: report against the configured URLs.
    sandboxError = isAppError(error) ? error.message : 'the sandbox could not be started';
    endpoints = {
      serverUrl: settings.serverUrl,
      aggregatorUrl: settings.aggregatorUrl,
      aggregatorApiKey: settings.aggregatorApiKey,
      network: settings.network,
      sandbox: true,
      release: async () => undefined,
    };
  }
  try {
    const aggregator = createAggregatorClient({
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
      probeServer,
      ...(sandboxError ? { sandboxError } : {}),
    });
    return { data, human: () => `${renderStatus(data)}${data.sandboxError ? `sandbox: ${data.sandboxError}\n` : ''}` };
  } finally {
    await endpoints.release();
  }
};
