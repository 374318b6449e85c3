/**
 * `finance-tui sandbox advance DURATION [--json]`: moves the running sandbox chain's clock
 * forward (epochs, exit windows and interest run on it). Sandbox only, so --sandbox is implied,
 * and only a running sandbox will do: one started for this command would end with it.
 */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui sandbox advance DURATION [--json]

Moves the running sandbox chain's clock forward by DURATION: a whole number and a unit,
s, m, h or d (e.g. 30s, 90m, 2h, 8d; at most 400d). Staking epochs, exit windows and lending
interest run on this clock. Prints the new chain time.
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {});
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 1)
    throw usageError('expected DURATION (e.g. 2h, 8d); see finance-tui sandbox advance --help');
  const { parseDuration, advanceSandbox } = await import('../core/sandbox-control.js');
  // checked before any sandbox is looked for: a bad duration never waits on the network
  const seconds = parseDuration(positionals[0] ?? '');
  const data = await withEndpoints(
    ctx,
    { sandbox: true, runningSandboxOnly: true },
    (endpoints, call) => advanceSandbox(endpoints, seconds, call),
  );
  return {
    data,
    human: () =>
      `Sandbox clock moved ${positionals[0]} forward: chain time is now ${data.chainTime}.\n`,
  };
};
