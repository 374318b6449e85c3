/**
 * `finance-tui login <email> [--sandbox] [--json]`: asks the auth server to mail a sign-in code
 * (cli/core/account.ts). In the sandbox the code is in the outbox of the running sandbox.
 */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';
import type { HeadlessLogin } from '../headless/account-render.js';

export const USAGE = `Usage: finance-tui login <email> [--sandbox] [--json]

Sends a 6-digit sign-in code to <email>; then: finance-tui verify <email> <code>.
Starts the auth server first when the configured URL is on this machine and nothing answers.
With --sandbox, a running sandbox (finance-tui sandbox) keeps the code in its outbox:
finance-tui sandbox outbox <email> prints it.
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {});
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 1) throw usageError('expected <email>; see finance-tui login --help');
  const [{ login }, { renderLogin }] = await Promise.all([
    import('../core/account.js'),
    import('../headless/account-render.js'),
  ]);
  const data = await withEndpoints(
    ctx,
    { sandbox: values.sandbox === true, runningSandboxOnly: true },
    async (endpoints, call) => {
      const { outbox, ...r } = await login(endpoints, positionals[0] ?? '', call);
      // the headless words for what comes next (the core names no command: cli/core/remedy.ts)
      const sandbox = r.sandbox ? ' --sandbox' : '';
      const doc: HeadlessLogin = {
        ...r,
        ...(outbox
          ? { outbox: { ...outbox, command: `finance-tui sandbox outbox ${r.email}` } }
          : {}),
        next: `finance-tui verify ${r.email} <code>${sandbox}`,
      };
      return doc;
    },
  );
  return { data, human: () => renderLogin(data) };
};
