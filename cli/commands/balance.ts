/** `finance-tui balance [TOKEN…] [--sandbox] [--json]`: the signed-in wallet's balances, exact. */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';

export const USAGE = `Usage: finance-tui balance [TOKEN…] [--sandbox] [--json]

Balances of the signed-in wallet, read from the chain: every registry token, or only the
TOKENs given (symbols or addresses). Exact amounts; --json adds base units.
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {});
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  const [{ balances }, { renderBalances }] = await Promise.all([
    import('../core/funds.js'),
    import('../headless/funds-render.js'),
  ]);
  const data = await withEndpoints(ctx, { sandbox: values.sandbox === true }, (endpoints, call) =>
    balances(endpoints, { tokens: positionals }, call),
  );
  return { data, human: () => renderBalances(data) };
};
