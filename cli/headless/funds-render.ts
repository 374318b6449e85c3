/**
 * Human renderings of `balance` and `send` (plan and result). Amounts are exact here: a transfer
 * is read digit by digit before it is confirmed.
 */
import type { BalanceResult, SendPlan, SendResult, TokenAmount } from '../core/funds.js';

const SANDBOX_BANNER = 'SANDBOX — local emulators, no real funds';

function table(rows: Array<[string, string]>, indent = '  '): string[] {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${indent}${label.padEnd(width)}  ${value}`);
}

const show = (a: TokenAmount): string => `${a.amount} ${a.symbol}`;
const signed = (a: TokenAmount): string => `${a.amount.startsWith('-') ? '' : '+'}${a.amount} ${a.symbol}`;
const place = (r: { sandbox: boolean; network: string }): string => (r.sandbox ? 'the sandbox' : r.network);

export function renderBalances(r: BalanceResult): string {
  return [
    ...(r.sandbox ? [SANDBOX_BANNER] : []),
    `Balances of ${r.address} (${r.email}) on ${place(r)}`,
    ...table(r.balances.map((b) => [b.symbol, b.amount])),
    '',
  ].join('\n');
}

function feeLine(plan: SendPlan): string {
  return plan.fee.mode === 'sponsored' ? 'sponsored (you pay no gas)' : `about ${show(plan.fee.estimated)}, at most ${show(plan.fee.max)}`;
}

export function renderPlan(plan: SendPlan): string {
  return [
    ...(plan.sandbox ? [SANDBOX_BANNER] : []),
    `Send ${show(plan.amount)} on ${place(plan)}`,
    ...table([
      ['From', `${plan.address} (${plan.email})`],
      ['To', plan.to],
      ['Amount', `${show(plan.amount)}  (${plan.amount.baseUnits} base units)`],
      ['Gas', feeLine(plan)],
      ...(plan.deploysAccount ? ([['Account', 'first transaction: it also deploys your account']] as Array<[string, string]>) : []),
      ['Simulated', plan.simulatedChanges.map(signed).join(', ')],
      ['Valid until', plan.expiresAt],
    ]),
    '',
  ].join('\n');
}

export function renderSent(r: SendResult): string {
  const fee = r.receipt.feePaid === null ? 'sponsored' : show(r.receipt.feePaid);
  return [
    ...(r.plan.sandbox ? [SANDBOX_BANNER] : []),
    `Sent ${show(r.plan.amount)} to ${r.plan.to}`,
    ...table([
      ['Transaction', r.receipt.transactionHash],
      ['Status', `${r.receipt.status}${r.receipt.deployedAccount ? ' (account deployed)' : ''}`],
      ['Gas paid', fee],
      ...r.balances.map((b): [string, string] => [b.after.symbol, `${b.before.amount} → ${b.after.amount}  (${signed(b.change)})`]),
    ]),
    '',
  ].join('\n');
}
