/**
 * `finance-tui sandbox liquidate COLLATERAL DEBT --user ADDRESS [--repay AMOUNT] [--json]`: the
 * running sandbox's liquidator liquidates a lending position through the pool's real
 * `liquidate_position` (docs/sandbox-chain.md "Liquidation"). Sandbox only, and only a running
 * sandbox will do; a collateralised position is refused (POSITION_HEALTHY), as the pool refuses it.
 */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui sandbox liquidate COLLATERAL DEBT --user ADDRESS [--repay AMOUNT] [--json]

Liquidates ADDRESS's COLLATERAL/DEBT lending position on the running sandbox, as a liquidator
would on Vesu: the sandbox's liquidator repays the debt (all of it, or AMOUNT of the debt token
with --repay) and takes collateral worth that repayment divided by the liquidation factor (0.9).
When the collateral at that factor is worth less than the debt, the shortfall is bad debt. The
pool refuses a position that is still collateralised (POSITION_HEALTHY): lower the collateral's
price first with \`finance-tui sandbox price\`. Prints what was seized, repaid and left.

  --user ADDRESS  the position's owner (e.g. your wallet's address)
  --repay AMOUNT  how much of the debt to repay (default: all)
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {
    user: { type: 'string' },
    repay: { type: 'string' },
  });
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 2)
    throw usageError(
      'expected COLLATERAL DEBT (e.g. ETH USDC); see finance-tui sandbox liquidate --help',
    );
  if (values.user === undefined)
    throw usageError('--user ADDRESS is needed: the owner of the position to liquidate');
  const [collateral, debt] = positionals as [string, string];
  const user = values.user;
  const repay = values.repay;
  const { liquidateSandbox } = await import('../core/sandbox-control.js');
  const data = await withEndpoints(
    ctx,
    { sandbox: true, runningSandboxOnly: true },
    (endpoints, call) => liquidateSandbox(endpoints, { collateral, debt, user, repay }, call),
  );
  return {
    data,
    human: () =>
      [
        `Liquidated the ${data.collateral}/${data.debt} position of ${data.user}.`,
        `  collateral seized: ${data.collateralSeized} ${data.collateral}`,
        `  debt repaid:       ${data.debtRepaid} ${data.debt}`,
        ...(data.badDebt === '0' ? [] : [`  bad debt:          ${data.badDebt} ${data.debt}`]),
        `  left:              ${data.collateralLeft} ${data.collateral} of collateral, ${data.debtLeft} ${data.debt} of debt`,
        `  transaction:       ${data.transactionHash}`,
        '',
      ].join('\n'),
  };
};
