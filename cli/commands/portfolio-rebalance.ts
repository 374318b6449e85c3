/** `finance-tui portfolio-rebalance --target "50 ETH, 30 USDC, 20 STRK" [--sell-unlisted] [--band PP] [--min-trade USD] [--yes] …` */
import type { CommandRun } from '../headless/context.js';
import { parseSigningArgs, runSigning, SIGNING_OPTIONS_HELP } from '../headless/swap-command.js';
import { ErrorCode, isAppError, usageError } from '../../shared/errors.js';
import type { RebalanceView } from '../core/actions/rebalance.js';

export const USAGE = `Usage: finance-tui portfolio-rebalance --target "50 ETH, 30 USDC, 20 STRK" [options]

Moves the wallet to a target allocation in one transaction: approve exactly → swap for each
leg, with every swap check, the simulation, the 30 s re-quote rule and --yes. Mainnet (and the
sandbox) only. The targets are percentages that must add up to 100. Tokens the target does not
name are kept, and the shares are of what the named tokens are worth together; with
--sell-unlisted they are sold and the shares are of the whole wallet. When every token is
within the band of its target nothing is signed ("already balanced", exit 0). Otherwise every
token goes back to its target: legs sell the largest surplus into the largest deficit, every
leg in one transaction (at most 8 swaps, each priced with its own route request, in parallel).
A run that could not end within the band (more legs than that, legs below --min-trade, or the
simulated allocation after it) is refused before signing (REBALANCE_OUTSIDE_BAND). The preview
shows token, now %, target %, after % (from the simulation), fees, gas and the worst-case
minimums.

  --target LIST       "PERCENT TOKEN, …", adding up to 100
  --sell-unlisted     sell every held token the target does not name
  --band PP           no trade while every token is within PP percentage points (default 2)
  --min-trade USD     make no leg worth less than USD (default 1)
${SIGNING_OPTIONS_HELP}`;

export const run: CommandRun = async (ctx) => {
  const { options, values, positionals } = parseSigningArgs(ctx.argv, {
    target: { type: 'string' },
    band: { type: 'string' },
    'min-trade': { type: 'string' },
    'sell-unlisted': { type: 'boolean' },
  });
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0)
    throw usageError(
      `portfolio-rebalance takes its targets in --target, not as arguments (got "${String(positionals[0]).slice(0, 40)}")`,
    );
  if (typeof values.target !== 'string')
    throw usageError('--target is required (e.g. --target "50 ETH, 30 USDC, 20 STRK")');
  const rebalance = {
    target: values.target,
    sellUnlisted: values['sell-unlisted'] === true,
    band: values.band as string | undefined,
    minTrade: values['min-trade'] as string | undefined,
  };
  try {
    return await runSigning(ctx, options, { kind: 'rebalance', rebalance });
  } catch (error) {
    // nothing to do is not a failure: the allocation, exit 0, nothing signed
    if (isAppError(error) && error.code === ErrorCode.ALREADY_BALANCED) {
      const view = error.details?.rebalance as RebalanceView;
      const { renderBalanced } = await import('../headless/portfolio-render.js');
      return {
        data: { status: 'balanced', signed: false, message: error.message, rebalance: view },
        human: () => renderBalanced(view),
      };
    }
    throw error;
  }
};
