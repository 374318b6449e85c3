/**
 * Human renderings of `quote` and `status` results: aligned label/value tables. Amounts are
 * exact, as in every face (docs/decisions.md "Amounts are shown exact, everywhere").
 */
import type { QuoteResult } from '../core/quote.js';
import type { StatusResult } from '../core/status.js';
import type { Money, QuoteSummary } from '../core/quote-summary.js';

/** Every digit (Money.amount is shared/amount.ts formatAmount's). */
function exact(m: Money): string {
  return `${m.amount} ${m.symbol}`;
}

function table(rows: Array<[string, string]>, indent = '  '): string[] {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${indent}${label.padEnd(width)}  ${value}`);
}

function routeLine(q: QuoteSummary): string[] {
  return q.route.map((leg) => {
    const path = [leg.hops[0]?.from ?? '?', ...leg.hops.map((h) => h.to)].join(' → ');
    const pools = leg.hops.map((h) => h.pools.map((p) => p.poolName).join(' + ')).join(', ');
    return `${leg.percent.padStart(4)} ${path} via ${pools}`;
  });
}

function priceImpactText(q: QuoteSummary): string {
  if (q.priceImpact === null) return 'unknown';
  if (q.priceImpactWarning === 'very-high') return `${q.priceImpact.percent}  !! VERY HIGH`;
  if (q.priceImpactWarning === 'high') return `${q.priceImpact.percent}  ! high`;
  return q.priceImpact.percent;
}

/** Above 5 % a warning line; above 15 % a loud one, before the numbers (docs: quote output). */
function priceImpactWarningLines(q: QuoteSummary): string[] {
  if (q.priceImpact === null || q.priceImpactWarning === null) return [];
  if (q.priceImpactWarning === 'very-high') {
    return [
      `!! VERY HIGH PRICE IMPACT: ${q.priceImpact.percent} — about ${q.priceImpact.percent} of what you pay is lost to the pools.`,
      '!! The pools are too thin for this amount: try a smaller amount or another pair.',
    ];
  }
  return [
    `warning: high price impact (${q.priceImpact.percent}): this trade moves the price against you.`,
  ];
}

function quoteRows(q: QuoteSummary, slippage: string): string[] {
  const routes = routeLine(q);
  const gas =
    q.gas.estimatedGasUsed === null
      ? 'unknown'
      : `${q.gas.estimatedGasUsed} gas${q.gas.estimatedGasUsedInUsd ? ` (~$${q.gas.estimatedGasUsedInUsd})` : ''}`;
  return table([
    ['You pay', exact(q.amountIn)],
    ['You receive (est.)', exact(q.expectedOutput)],
    ['Minimum received', `${exact(q.minimumReceived)}  (slippage ${slippage})`],
    ['Service fee', `${q.fee.percent}  ${exact(q.fee.amount)}`],
    ['Price impact', priceImpactText(q)],
    ['Rate', `1 ${q.from.symbol} = ${q.rate} ${q.to.symbol}`],
    ['Route', routes[0] ?? ''],
    ...routes.slice(1).map((line): [string, string] => ['', line]),
    ['Gas (estimate)', gas],
  ]);
}

export function renderQuote(result: QuoteResult): string {
  const lines: string[] = [];
  if (result.sandbox) lines.push('SANDBOX — local emulators, no real funds');
  const how =
    result.mode === 'batch'
      ? ', one batch request'
      : result.mode === 'parallel'
        ? ', pairs quoted in parallel'
        : '';
  lines.push(
    `${result.network === 'sandbox' ? 'Quote in the sandbox (mainnet-like tokens)' : `Quote on ${result.network}`}${how}`,
  );
  result.quotes.forEach((q, i) => {
    lines.push('');
    if (result.quotes.length > 1)
      lines.push(`Pair ${i + 1} of ${result.quotes.length}: ${q.from.symbol} → ${q.to.symbol}`);
    lines.push(...priceImpactWarningLines(q), ...quoteRows(q, result.slippage.percent));
  });
  lines.push('', 'Quotes are net of the service fee; nothing has been signed or sent.', '');
  return lines.join('\n');
}

export function renderStatus(view: StatusResult): string {
  const agg = view.aggregator;
  const srv = view.server;
  const aggState = agg.reachable
    ? `ok${agg.message ? ` — ${agg.message}` : ''}`
    : `DOWN — ${agg.error ?? 'not reachable'}`;
  const srvState = !srv.reachable
    ? `DOWN — ${srv.error ?? 'not reachable'}`
    : srv.usable === false
      ? `NOT USABLE — ${srv.error ?? 'not the configured server'}`
      : `ok${srv.version ? ` — version ${srv.version}` : ''}`;
  const lines = [
    ...(view.sandbox ? ['SANDBOX — local emulators, no real funds'] : []),
    ...table(
      [
        ['Network', `${view.network}${view.swapsSupported ? '' : ' (swaps are mainnet-only)'}`],
        ['Aggregator', `${agg.url ?? '(unknown)'}  ${aggState}`],
        ['Auth server', `${srv.url ?? '(unknown)'}  ${srvState}`],
      ],
      '',
    ),
    '',
  ];
  return lines.join('\n');
}
