/** `finance-tui portfolio [--fresh] [--network NAME] [--sandbox] [--json]`: what the wallet is worth. */
import { parseCommandArgs, parseNetworkFlag } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui portfolio [--fresh] [--network NAME] [--sandbox] [--json]

Every registry token the signed-in wallet holds: exact balance, USD price and value, share of
the total (shares add up to exactly 100.00 %), and the total. Prices are the aggregator's USD
price per unit, quoted on a sale of the whole holding into USDC, all tokens in one parallel
round; where selling it all at once would fetch noticeably less (price impact above 1 %), that
is shown too. A token without a route is unpriced: shown, and left out of the total (never
counted as 0). Prices are cached for 20 s; their age is shown. On sepolia the aggregator does
not work: balances are shown and the prices say why they are missing.
Positions are lines of their own: staked, exiting and unclaimed STRK, Vesu supplies and
collateral as holdings, debt as negative (its health factor beside it), and the net total
(wallet + positions); a rebalance acts on wallet tokens only.

  --fresh          ask for every price now (ignore the 20 s cache)
  --network NAME   mainnet or sepolia
  --json           one JSON document: tokens (balance, price, value, share, ifSoldNow,
                   unpriced), total, positions, net, unpriced, notes, pricing (method, cache,
                   age)
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {
    fresh: { type: 'boolean' },
    network: { type: 'string' },
  });
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0)
    throw usageError(`portfolio takes no arguments (got "${String(positionals[0]).slice(0, 40)}")`);
  const network = parseNetworkFlag(values.network);
  const [{ portfolio }, { renderPortfolio }] = await Promise.all([
    import('../core/portfolio.js'),
    import('../headless/portfolio-render.js'),
  ]);
  const data = await withEndpoints(
    ctx,
    { sandbox: values.sandbox === true, ...(network ? { network } : {}) },
    (endpoints, call) => portfolio(endpoints, values.fresh === true ? { maxAgeMs: 0 } : {}, call),
  );
  return { data, human: () => renderPortfolio(data) };
};
