/** `finance-tui grant create`: an agent grant on the auth server, its token written to --out (0600). */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';
import { USAGE } from './grant.js';

export { USAGE };

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {
    daily: { type: 'string', multiple: true },
    'allow-recipient': { type: 'string', multiple: true },
    expires: { type: 'string' },
    out: { type: 'string' },
  });
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0)
    throw usageError(
      `grant create takes no arguments (got "${String(positionals[0]).slice(0, 40)}")`,
    );
  if (values.daily === undefined || values.daily.length === 0)
    throw usageError('grant create needs --daily "AMOUNT TOKEN" (e.g. --daily "50 USDC")');
  if (values.expires === undefined)
    throw usageError('grant create needs --expires DURATION (e.g. 24h)');
  if (values.out === undefined || values.out.trim() === '')
    throw usageError('grant create needs --out FILE (where the token is written)');
  const [{ createGrant }, { renderGrantCreated }] = await Promise.all([
    import('../core/grants.js'),
    import('../headless/grant-render.js'),
  ]);
  const input = {
    daily: values.daily,
    recipients: values['allow-recipient'] ?? [],
    expires: values.expires,
    out: values.out,
  };
  const data = await withEndpoints(ctx, { sandbox: values.sandbox === true }, (endpoints, call) =>
    createGrant(endpoints, input, call),
  );
  return { data, human: () => renderGrantCreated(data) };
};
