/**
 * Human rendering of `balance`. Amounts are exact here. (`send` is an action: plan-render.ts.)
 */
import type { BalanceResult } from '../core/funds.js';

const SANDBOX_BANNER = 'SANDBOX — local emulators, no real funds';

function table(rows: Array<[string, string]>, indent = '  '): string[] {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${indent}${label.padEnd(width)}  ${value}`);
}

const place = (r: { sandbox: boolean; network: string }): string =>
  r.sandbox ? 'the sandbox' : r.network;

export function renderBalances(r: BalanceResult): string {
  return [
    ...(r.sandbox ? [SANDBOX_BANNER] : []),
    `Balances of ${r.address} (${r.email}) on ${place(r)}`,
    ...table(r.balances.map((b) => [b.symbol, b.amount])),
    '',
  ].join('\n');
}
