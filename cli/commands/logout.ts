/** `finance-tui logout [--json]`: the server ends the session's token, then the saved session is removed. */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';

export const USAGE = `Usage: finance-tui logout [--json]

Signs out: the auth server is told to end this session's token (and every earlier token of
the account), then the saved session is removed from the data folder. The file is removed even
when the server cannot be reached; the output then warns that the token stays valid there
until it expires (7 days from sign-in). No server is started for it.
`;

export const run: CommandRun = async (ctx) => {
  const { values } = parseCommandArgs(ctx.argv, {}, false);
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  const [{ logout }, { renderLogout }] = await Promise.all([
    import('../core/account.js'),
    import('../headless/account-render.js'),
  ]);
  const data = await logout(ctx.env, { signal: ctx.signal });
  return { data, human: () => renderLogout(data) };
};
