/**
 * What the lending leg types share (docs/architecture.md "Adding a leg type"; Vesu v2's calls,
 * shared/vesu.ts): the felts of a u256 and of an `Amount` (denomination, then an i257), the
 * read-back of an approve (the right spender, the exact amount), the health factor before and
 * after a change of a position, and the 'low-health' acknowledgment below the safety margin
 * (shared/vesu.ts HEALTH_MARGIN, 1.2). Pure.
 */
import { AppError, ErrorCode } from '../../../../shared/errors.js';
import { addressToBigInt, sameAddress, type Token } from '../../../../shared/tokens.js';
import { DENOMINATION, healthLevel, i257Felts, type VesuPool } from '../../../../shared/vesu.js';
import type { ChainCall } from '../../chain/calls.js';
import { HEALTH_MARGIN } from '../../../../shared/vesu.js';
import { healthWords } from '../../lending-health.js';
import type { Acknowledgment } from '../acknowledgments.js';
import { decodeAddressAmount } from '../calls.js';
import type { LegPool } from './types.js';
import { exact } from './words.js';

export type { VesuPool } from '../../../../shared/vesu.js';

const U128 = 1n << 128n;

/** A u256 as its two felts (low, high). */
export const u256Values = (value: bigint): [bigint, bigint] => [value % U128, value >> 128n];

/** An `Amount` { denomination, value: i257 } as its 4 felts. */
export const amountValues = (native: boolean, value: bigint): bigint[] => [
  native ? DENOMINATION.Native : DENOMINATION.Assets,
  ...i257Felts(value),
];

export const hexFelt = (value: bigint): string => `0x${value.toString(16)}`;

/** The health factor before and after a leg (×1e18; undefined: no debt). */
export interface HealthChange {
  before: bigint | undefined;
  after: bigint | undefined;
}

/** "1.5 → 1.25" (— for no debt). */
export const healthChangeWords = (h: HealthChange): string =>
  `${healthWords(h.before) ?? '—'} → ${healthWords(h.after) ?? '—'}`;

/**
 * The acknowledgment a position left below the safety margin needs (none when it adds no risk).
 * The margin is one rule with one boundary — `healthLevel` (shared/vesu.ts), the same function
 * behind every face's "close to liquidation" warning — so a health factor of exactly 1.2 is
 * neither asked about here nor warned about there (docs/decisions.md "The health margin: one rule").
 */
export function lowHealth(h: HealthChange, risky: boolean, what: string): Acknowledgment[] {
  if (!risky || h.after === undefined || healthLevel(h.after) === 'ok') return [];
  return [
    {
      id: 'low-health',
      reason: `${what} leaves the health factor at ${healthWords(h.after)}, below the safety margin of ${healthWords(HEALTH_MARGIN)} (at 1 the position can be liquidated)`,
      details: { healthFactor: healthWords(h.after), margin: healthWords(HEALTH_MARGIN) },
    },
  ];
}

/** Reads back `approve(spender, amount)` on `token`; APPROVAL_MISMATCH naming the call otherwise. */
export function checkApprove(
  call: ChainCall | undefined,
  token: Token,
  spender: string,
  amount: bigint,
  what: string,
  at: number,
  spenderWords: string,
): void {
  const args = call === undefined ? undefined : decodeAddressAmount(call.calldata);
  if (
    call === undefined ||
    call.entrypoint !== 'approve' ||
    !sameAddress(call.contractAddress, token.address) ||
    args === undefined ||
    args.address !== addressToBigInt(spender) ||
    args.amount !== amount
  )
    throw new AppError(
      ErrorCode.APPROVAL_MISMATCH,
      `${what}: call ${at + 1} must approve exactly ${exact(amount, token)} to ${spenderWords} ${spender}; refusing to sign`,
      { details: { field: 'approve', call: at + 1 } },
    );
}

/** A Vesu pool as the plan document lists it (legs/types.ts LegPool). */
export const poolView = (pool: VesuPool): LegPool => ({ name: pool.name, address: pool.address });

/** The health factor before and after, as the plan document lists it. */
export const healthView = (h: HealthChange): { before: string | null; after: string | null } => ({
  before: healthWords(h.before),
  after: healthWords(h.after),
});

export const poolWords = (pool: VesuPool): string => `the Vesu ${pool.name} pool`;
