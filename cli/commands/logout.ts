/** `finance-tui logout [--json]`: forgets the saved session (the file is removed). */
import { parseCommandArgs } from '../args.js';
import type { CommandRun } from '../context.js';

export const USAGE = `Usage: finance-tui logout [--json]

Removes the saved session from the data folder. Tokens are not revoked server-side; they
expire on their own (7 days).
`;

export const run: CommandRun = async (ctx) => {
  const { values } = parseCommandArgs(ctx.argv, {}, false);
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  const [{ logout }, { renderLogout }] = await Promise.all([import('../core/account.js'), import('../account-render.js')]);
  const data = logout(ctx.env);
  return { data, human: () => renderLogout(data) };
};
