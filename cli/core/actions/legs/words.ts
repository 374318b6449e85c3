/**
 * The words every leg type uses for amounts, addresses and calls. Amounts in what will be
 * signed are exact (docs/architecture.md "The action pipeline"); a call is said from its own
 * felts, so a wrong call reads wrong. Pure.
 */
import { feltHex } from '../../../../shared/felt.js';
import { formatAmount } from '../../../../shared/amount.js';
import { findToken, sameAddress, type Token } from '../../../../shared/tokens.js';
import type { ChainCall } from '../../chain/calls.js';
import { decodeAddressAmount } from '../calls.js';
import type { LegAmount, LegPlan } from './types.js';
import { timeWords } from '../spend-words.js';

/** `1.999999999 ETH`: the exact amount, never cut. */
export const exact = (amount: bigint, token: Pick<Token, 'symbol' | 'decimals'>): string =>
  `${formatAmount(amount, token.decimals)} ${token.symbol}`;

/** What a plan line says: the amount exactly as signed (never cut). */
export const said = exact;

export const shortAddress = (a: string): string => `${a.slice(0, 6)}…${a.slice(-4)}`;

/** An address as the plan names it: the router, the account, or the address itself. */
export function whom(address: bigint | string, plan: Pick<LegPlan, 'router' | 'account'>): string {
  const text = typeof address === 'bigint' ? feltHex(address) : address;
  if (sameAddress(text, plan.router)) return `the router ${shortAddress(plan.router)}`;
  if (sameAddress(text, plan.account)) return `your account ${shortAddress(plan.account)}`;
  return text;
}

/** One call in words, read from the call itself: an ERC-20 approve or transfer, or its entrypoint. */
export function describeCall(call: ChainCall, plan: LegPlan): string {
  const token = findToken(plan.network, call.contractAddress);
  const args = decodeAddressAmount(call.calldata);
  if (token !== undefined && args !== undefined && call.entrypoint === 'approve')
    return `approve ${said(args.amount, token)} to ${whom(args.address, plan)}`;
  if (token !== undefined && args !== undefined && call.entrypoint === 'transfer')
    return `transfer ${said(args.amount, token)} to ${whom(args.address, plan)}`;
  if (call.entrypoint === 'swap' && sameAddress(call.contractAddress, plan.router))
    return `swap on the router ${shortAddress(plan.router)}`;
  return `${call.entrypoint} on ${call.contractAddress} (${call.calldata.length} felts)`;
}

/** An exact amount as the plan document lists it (legs/types.ts LegAmount). */
export const legAmount = (amount: bigint, token: Token): LegAmount => ({
  token: token.symbol,
  tokenAddress: token.address,
  amount: formatAmount(amount, token.decimals),
  baseUnits: amount.toString(),
});

/** "2 d 3 h 4 min" (at least "0 min"). */
export function durationWords(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3_600);
  const m = Math.ceil((s % 3_600) / 60);
  return [d > 0 ? `${d} d` : '', h > 0 ? `${h} h` : '', `${m} min`].filter(Boolean).join(' ');
}

/** A chain time (seconds) a figure is as of, in every face's words ("2026-11-29 08:00:00 UTC"). */
export const asOfWords = (seconds: number): string =>
  timeWords(new Date(seconds * 1000).toISOString());
