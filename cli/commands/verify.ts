/**
 * `finance-tui verify <email> <code> [--sandbox] [--json]`: exchanges the code for a session and
 * saves it (cli/core/account.ts). The code is an argument because scripts need it; it is never
 * printed or logged.
 */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui verify <email> <code> [--sandbox] [--json]

Signs in with the 6-digit code from finance-tui login and saves the session (token, wallet)
in the data folder (session.json, mode 0600). A wallet whose address is not its public key's
account is refused and nothing is saved.
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {});
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 2)
    throw usageError('expected <email> <code>; see finance-tui verify --help');
  const [{ verify }, { renderVerify }] = await Promise.all([
    import('../core/account.js'),
    import('../headless/account-render.js'),
  ]);
  const data = await withEndpoints(
    ctx,
    { sandbox: values.sandbox === true, runningSandboxOnly: true },
    (endpoints, call) => verify(endpoints, positionals[0] ?? '', positionals[1] ?? '', call),
  );
  return { data, human: () => renderVerify(data) };
};
