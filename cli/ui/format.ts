/** Human renderings shared by the screens: short addresses, amounts, USD, signed changes. */
import { formatAmount } from '../../shared/amount.js';

export function shortAddress(address: string): string {
  return address.length <= 14 ? address : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/**
 * An amount with every digit: the one amount rendering of the app, as of every face (shared/amount.ts
 * formatAmount; docs/decisions.md "Amounts are shown exact, everywhere").
 */
export function amount(value: bigint, decimals: number, symbol: string): string {
  return `${formatAmount(value, decimals)} ${symbol}`;
}

/** Cents → "$1,234.56" (exact; bigint). */
export function usd(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}$${whole}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** A quote's money (decimal strings and base units), exact like amount(). */
export function money(m: { baseUnits: string; symbol: string }, decimals: number): string {
  return amount(BigInt(m.baseUnits), decimals, m.symbol);
}

/** A change, signed, every digit. */
export function signedAmount(delta: bigint, decimals: number, symbol: string): string {
  return delta < 0n
    ? `−${amount(-delta, decimals, symbol)}`
    : `+${amount(delta, decimals, symbol)}`;
}

/**
 * Where this session runs, in the header's words: a network, or the sandbox and the network it is
 * shaped like (its token registry and rules: `mainnet-like` or `sepolia-like`, never assumed).
 */
export function whereWords(env: { sandbox: boolean; network: string }): string {
  return env.sandbox ? `sandbox (${env.network}-like)` : env.network;
}
