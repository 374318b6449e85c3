/** `finance-tui grant revoke ID`: ends an agent grant at once (its token signs nothing more). */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';
import { USAGE } from './grant.js';

export { USAGE };

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {});
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 1)
    throw usageError('grant revoke takes one grant ID (see grant list)');
  const [{ revokeGrant }, { renderGrantRevoked }] = await Promise.all([
    import('../core/grants.js'),
    import('../headless/grant-render.js'),
  ]);
  const data = await withEndpoints(ctx, { sandbox: values.sandbox === true }, (endpoints, call) =>
    revokeGrant(endpoints, positionals[0] ?? '', call),
  );
  return { data, human: () => renderGrantRevoked(data) };
};
