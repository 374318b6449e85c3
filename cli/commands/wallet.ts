/**
 * `finance-tui wallet [--create] [--sandbox] [--json]`: the signed-in account's wallet as the
 * auth server knows it (POST /wallet/find), or a new one (POST /wallet/create, whose fresh
 * token replaces the saved one).
 */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';

export const USAGE = `Usage: finance-tui wallet [--create] [--sandbox] [--json]

Shows the wallet of the saved session. --create makes one when the account has none (or an
unusable one); a usable wallet is never replaced (WALLET_EXISTS).
`;

export const run: CommandRun = async (ctx) => {
  const { values } = parseCommandArgs(ctx.argv, { create: { type: 'boolean' } }, false);
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  const [{ wallet }, { renderWallet }] = await Promise.all([
    import('../core/account.js'),
    import('../headless/account-render.js'),
  ]);
  const data = await withEndpoints(ctx, { sandbox: values.sandbox === true }, (endpoints, call) =>
    wallet(endpoints, { create: values.create === true }, call),
  );
  return { data, human: () => renderWallet(data) };
};
