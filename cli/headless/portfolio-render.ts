/**
 * Human renderings of `portfolio` and of a rebalance's table (docs/portfolio.md). Balances are
 * exact; values are USD cents (floored); shares add up to 100.00 % as shown.
 */
import type { Portfolio } from '../core/portfolio.js';
import { liquidationWords } from '../core/liquidations.js';
import type { RebalanceView } from '../core/actions/rebalance.js';
import { healthNote } from '../../shared/vesu.js';

/** What a borrow's health factor means, beside it (shared/vesu.ts healthNote). */
const noteOf = (healthFactor: string | null): string => {
  const { note } = healthNote(healthFactor);
  return note === '' ? '' : ` (${note})`;
};

const SANDBOX_BANNER = 'SANDBOX — local emulators, no real funds';

function table(header: string[], rows: string[][], right: ReadonlySet<number>): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (right.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)];
}

/** A bar of `units` hundredths of a percent, `width` cells for 100 %. */
export function bar(units: number, width = 20): string {
  const cells = Math.round((units * width) / 10_000);
  return '█'.repeat(cells) + '·'.repeat(Math.max(0, width - cells));
}

export function renderPortfolio(p: Portfolio): string {
  const lines: string[] = [];
  if (p.sandbox) lines.push(SANDBOX_BANNER);
  lines.push(`Portfolio of ${p.address} (${p.email}) on ${p.sandbox ? 'the sandbox' : p.network}`);
  if (p.tokens.length === 0) lines.push('  The wallet holds no registry token.');
  else {
    lines.push(
      ...table(
        ['token', 'balance', 'price USD', 'value USD', 'share', ''],
        p.tokens.map((t) => [
          t.symbol,
          t.amount,
          t.price?.usd ?? 'unpriced',
          t.value?.usd ?? '—',
          t.share === null ? '—' : `${t.share.percent} %`,
          t.share === null ? '' : bar(t.share.units),
        ]),
        new Set([1, 2, 3, 4]),
      ),
    );
  }
  lines.push(`  Total: ${p.total.usd} USD${p.unpriced.length > 0 ? ' (priced tokens only)' : ''}`);
  // positions: each its own line, a debt negative with its health factor (cli/core/positions.ts)
  if (p.positions !== undefined && p.positions.length > 0) {
    lines.push('', '  Positions:');
    lines.push(
      ...table(
        ['position', 'amount', 'value USD', 'where', ''],
        p.positions.map((x) => [
          x.kind,
          `${x.amount} ${x.symbol}`,
          x.value?.usd ?? 'unpriced',
          x.source,
          x.healthFactor === undefined
            ? ''
            : `health factor ${x.healthFactor ?? '—'}${noteOf(x.healthFactor ?? null)}`,
        ]),
        new Set([2]),
      ).map((line) => `  ${line}`),
    );
    if (p.net !== undefined)
      lines.push(`  Net: ${p.net.usd} USD (wallet + positions, debt subtracted)`);
  }
  // liquidations: what was taken and what is left, in the one wording (cli/core/liquidations.ts)
  if (p.liquidations !== undefined && p.liquidations.length > 0) {
    lines.push('', '  Liquidations (read from the chain):');
    for (const l of p.liquidations)
      lines.push(`    ${l.collateral.token}/${l.debt.token} ${liquidationWords(l)}`);
  }
  for (const t of p.tokens) {
    if (t.ifSoldNow !== null && (t.ifSoldNow.impactBps ?? 0) > 100)
      lines.push(
        `  ${t.symbol}: selling it all at once would fetch about ${t.ifSoldNow.usdc} USDC (price impact ${t.ifSoldNow.impact})`,
      );
  }
  for (const u of p.unpriced) lines.push(`  ${u.symbol}: ${u.reason}`);
  for (const n of p.notes) lines.push(`note: ${n}`);
  const age =
    p.pricing.ageSeconds === null
      ? 'no prices'
      : `prices ${p.pricing.ageSeconds} s old${p.pricing.fromCache > 0 ? ` (${p.pricing.fromCache} from the ${p.pricing.cacheSeconds} s cache)` : ''}`;
  lines.push(
    `  ${age}; price = the aggregator's USD price per unit, quoted on a sale of the whole holding into USDC`,
    '',
  );
  return lines.join('\n');
}

/** The rebalance table: token, now %, target %, after % (from the simulation), then what the shares are of. */
export function renderRebalanceTable(v: RebalanceView): string[] {
  const lines = table(
    ['token', 'now %', 'target %', `after %${v.afterFrom === 'simulation' ? ' (simulated)' : ''}`],
    v.rows.map((r) => [r.symbol, r.now, r.target, r.after ?? '—']),
    new Set([1, 2, 3]),
  );
  // the headless words for selling the rest (the core names no flag: cli/core/remedy.ts)
  const sell = v.base === 'named-tokens' ? ' (--sell-unlisted sells the others)' : '';
  lines.push(
    `  Shares: ${v.baseNote}${sell}; worth ${v.baseValueUsd} USD at prices of ${v.pricedAt}.`,
  );
  lines.push(`  Band ${v.band} percentage points; minimum trade ${v.minTradeUsd} USD.`);
  for (const n of v.notes) lines.push(`  note: ${n}`);
  return lines;
}

export function renderBalanced(v: RebalanceView): string {
  return [
    'Already balanced: every token is within the band of its target. Nothing was signed.',
    '',
    ...renderRebalanceTable(v),
    '',
  ].join('\n');
}
