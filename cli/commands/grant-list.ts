/** `finance-tui grant list`: the person's agent grants, with what each has left. */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';
import { USAGE } from './grant.js';

export { USAGE };

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {});
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0) throw usageError('grant list takes no arguments');
  const [{ listGrants }, { renderGrantList }] = await Promise.all([
    import('../core/grants.js'),
    import('../headless/grant-render.js'),
  ]);
  const data = await withEndpoints(ctx, { sandbox: values.sandbox === true }, (endpoints, call) =>
    listGrants(endpoints, call),
  );
  return { data, human: () => renderGrantList(data) };
};
