/**
 * `finance-tui login <email> [--sandbox] [--json]`: asks the auth server to mail a sign-in code
 * (cli/core/account.ts). In the sandbox the code is in the outbox of the running sandbox.
 */
import { parseCommandArgs } from '../args.js';
import type { CommandRun } from '../context.js';
import { progressTo } from '../progress.js';
import { usageError } from '../../shared/errors.js';

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
  const [{ resolveEndpoints }, { login }, { renderLogin }] = await Promise.all([
    import('../core/endpoints.js'),
    import('../core/account.js'),
    import('../account-render.js'),
  ]);
  const call = { signal: ctx.signal, onProgress: progressTo(ctx) };
  const endpoints = await resolveEndpoints(ctx.env, { sandbox: values.sandbox === true, runningSandboxOnly: true }, call);
  try {
    const data = await login(endpoints, positionals[0] ?? '', call);
    return { data, human: () => renderLogin(data) };
  } finally {
    await endpoints.release();
  }
};
