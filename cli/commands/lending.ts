/** `finance-tui lending [--pool P] [--network N] [--sandbox] [--json]`: your Vesu positions, with the health factor of each borrow. */
import { parseCommandArgs, parseNetworkFlag } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { formatAmount } from '../../shared/amount.js';
import { usageError } from '../../shared/errors.js';
import { HEALTH_MARGIN, healthLevelOfWords, ltvPercentOfWords } from '../../shared/vesu.js';

export const USAGE = `Usage: finance-tui lending [--pool NAME|ADDRESS] [--network mainnet|sepolia] [--sandbox] [--json]

Your positions in a Vesu pool (default: the network's main pool): what you supplied and what it is
worth now; each borrow's collateral and debt, its health factor (collateral value × max LTV / debt
value at the pool's own prices: below 1 it can be liquidated), the max LTV, the collateral price
at which it would reach 1, and the pool's limits that apply (debt floor, cap, utilisation); and
each asset the pool lists with what supplying earns and borrowing costs now (APY and APR, percent
with 2 decimals rounded down, from the pool's own rate views) and its utilisation.
Exact amounts; --json gives supplied: [{pool, token, amount, baseUnits, valueUsd}], markets:
[{pool, token, utilization, supplyApr, supplyApy, borrowApr, borrowApy}] and borrows:
[{pool, collateral, debt, healthFactor, maxLtv, liquidationPrice, limits}]. A position that was
liquidated says so, read from the pool's LiquidatePosition events: what was taken (collateral
seized, debt repaid, bad debt) and what is left; --json gives liquidations: [{pool,
transactionHash, blockNumber, liquidator, collateral: {token, seized, seizedBaseUnits}, debt:
{token, repaid, repaidBaseUnits, badDebt, badDebtBaseUnits}, left: {collateral, debt, …}}].
`;

/** A borrow's health against the margin, in words with the commands that raise it; none when fine. */
function healthWarning(
  hf: string | null,
  pair: { collateral: string; debt: string; sandbox: boolean },
): string[] {
  const level = healthLevelOfWords(hf);
  if (level === 'ok') return [];
  const { collateral, debt } = pair;
  const where = pair.sandbox ? ' --sandbox' : '';
  const remedy = `repay (finance-tui repay AMOUNT ${debt} --collateral ${collateral}${where}) or add collateral (finance-tui add-collateral AMOUNT ${collateral} --debt ${debt}${where})`;
  return [
    level === 'liquidatable'
      ? `      ! health factor ${hf} is at or below 1: this position can be liquidated now — ${remedy}`
      : `      ! health factor ${hf} is below ${formatAmount(HEALTH_MARGIN, 18)}: close to liquidation — ${remedy}`,
  ];
}

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {
    network: { type: 'string' },
    pool: { type: 'string' },
  });
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0)
    throw usageError(`lending takes no arguments (got "${String(positionals[0]).slice(0, 40)}")`);
  const network = parseNetworkFlag(values.network);
  const [{ lendingPositions }, { liquidationWords }] = await Promise.all([
    import('../core/lending.js'),
    import('../core/liquidations.js'),
  ]);
  const data = await withEndpoints(
    ctx,
    { sandbox: values.sandbox === true, ...(network ? { network } : {}) },
    (endpoints, call) =>
      lendingPositions(endpoints, { pool: values.pool as string | undefined }, call),
  );
  return {
    data,
    human: () => {
      const lines = [`Vesu ${data.pools.map((p) => p.name).join(', ')} pool on ${data.network}:`];
      lines.push(data.supplied.length === 0 ? '  Supplied: nothing.' : '  Supplied:');
      for (const s of data.supplied)
        lines.push(`    ${s.amount} ${s.token}${s.valueUsd === null ? '' : ` ($${s.valueUsd})`}`);
      lines.push(data.borrows.length === 0 ? '  Borrows: none.' : '  Borrows:');
      for (const b of data.borrows)
        lines.push(
          `    ${b.debt.amount} ${b.debt.token} against ${b.collateral.amount} ${b.collateral.token}: health factor ${b.healthFactor ?? '— (no debt)'} (max LTV ${ltvPercentOfWords(b.maxLtv)}${b.liquidationPrice === null ? '' : `, liquidation at ${b.collateral.token} $${b.liquidationPrice}`})`,
          `      limits: debt floor $${b.limits.debtFloorUsd}${b.limits.debtCap === null ? '' : `, cap ${b.limits.debtCap} ${b.debt.token}`}, utilisation up to ${b.limits.maxUtilization}`,
          ...healthWarning(b.healthFactor, {
            collateral: b.collateral.token,
            debt: b.debt.token,
            sandbox: data.network === 'sandbox',
          }),
        );
      if (data.liquidations.length > 0) lines.push('  Liquidations:');
      for (const l of data.liquidations)
        lines.push(`    ${l.collateral.token}/${l.debt.token} ${liquidationWords(l)}`);

      if (data.markets.length > 0) {
        lines.push('  Rates now (supply earns / borrow costs; APY, APR in brackets):');
        for (const m of data.markets)
          lines.push(
            `    ${m.token}: supply ${m.supplyApy} % (${m.supplyApr} %), borrow ${m.borrowApy} % (${m.borrowApr} %), utilisation ${m.utilization} %`,
          );
      }
      return `${lines.join('\n')}\n`;
    },
  };
};
