/**
 * `finance-tui sandbox price TOKEN USD [--json]`: sets the running sandbox's USD price of a token
 * — the lending oracle's, and the market's (the aggregator emulator's pools move to it). Sandbox
 * only, and only a running sandbox will do.
 */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui sandbox price TOKEN USD [--json]

Sets the running sandbox's price of TOKEN to USD dollars (an exact decimal, e.g. 2500 or 0.42):
the lending oracle answers it at once, and the market's pools move to it, so quotes and the
portfolio follow. USDC is the market's unit of account and keeps its price of 1.
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {});
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 2)
    throw usageError('expected TOKEN USD (e.g. ETH 2500); see finance-tui sandbox price --help');
  const [token, usd] = positionals as [string, string];
  const { setSandboxPrice } = await import('../core/sandbox-control.js');
  const data = await withEndpoints(
    ctx,
    { sandbox: true, runningSandboxOnly: true },
    (endpoints, call) => setSandboxPrice(endpoints, token, usd, call),
  );
  return {
    data,
    human: () =>
      `${data.token} is now $${data.usd} on the sandbox's lending oracle; the market quotes $${data.marketUsd}.\n`,
  };
};
