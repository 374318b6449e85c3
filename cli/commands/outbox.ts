/**
 * `finance-tui sandbox outbox <email> [--json]`: the latest sign-in code the running sandbox's
 * identity emulator "sent" to <email> (its outbox; nothing leaves the machine). Sandbox only,
 * so --sandbox is implied.
 */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui sandbox outbox <email> [--json]

Prints the latest sign-in code the running sandbox sent to <email> (the emulated mailbox).
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {});
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 1)
    throw usageError('expected <email>; see finance-tui sandbox outbox --help');
  const [{ readOutbox }, { renderOutbox }] = await Promise.all([
    import('../core/account.js'),
    import('../headless/account-render.js'),
  ]);
  const data = await withEndpoints(
    ctx,
    { sandbox: true, runningSandboxOnly: true },
    (endpoints, call) => readOutbox(endpoints, positionals[0] ?? '', call),
  );
  return { data, human: () => renderOutbox(data) };
};
