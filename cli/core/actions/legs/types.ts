/**
 * A leg type (docs/architecture.md "Adding a leg type"): one kind of step a transaction is made
 * of — a swap, a transfer, a stake, … Each leg type is one module under this folder that owns,
 * for its legs: the calls it makes, how those calls are read back before signing, its words for
 * the plan, and its **effects** — what leaves the account (exact), what arrives (a guaranteed
 * minimum or an exact amount) and the positions it changes. Everything else the pipeline does
 * (the balance and gas check, the spending caps and allow-list, the retry fingerprint, the
 * history amounts, the headline, the received amounts, the simulation check) is derived from the
 * effects, for every leg alike (legs/index.ts). Pure types: no I/O.
 */
import type { Network, Token } from '../../../../shared/tokens.js';
import type { ChainCall } from '../../chain/calls.js';
import type { Acknowledgment } from '../acknowledgments.js';

/** A token leaving the account, exactly `amount`; `to` names the third party paid (a transfer's recipient). */
export interface OutEffect {
  token: Token;
  amount: bigint;
  to?: string | undefined;
  /**
   * the amount is a bound on "all" of a position (repay all, close: the debt plus a margin, which
   * grows with interest): the retry fingerprint sees 'all', never the bound (fingerprint.ts)
   */
  all?: true | undefined;
  /**
   * with `all`: what the leg is expected to take (the debt as read); `amount` is then only the
   * bound — every face says "at most" it (document.ts spendWords)
   */
  expected?: bigint | undefined;
  /**
   * the USD price an outside service quoted for this token with the leg (a swap's route), as
   * sent: the caps value the outflow with it (caps.ts usdPriceOfOut); absent, they ask for one
   */
  quotedPrice?: unknown;
  /** the route the leg exchanges the amount on (a swap's), whose output values it (value.ts) */
  route?: { to: Token; grossOutput: bigint } | undefined;
}

/** A token arriving: at least `amount` ('minimum', a swap's guarantee) or exactly ('exact', a claim). */
export interface InEffect {
  token: Token;
  amount: bigint;
  basis: 'minimum' | 'exact';
  /** paid to this address instead of the account (a claim's reward address); absent: the account */
  to?: string | undefined;
}

/** A position the leg changes (staking: the pool member's stake, exit, rewards; lending: Vesu's supply, collateral, debt). */
export interface PositionEffect {
  kind: 'staking' | 'lending';
  /** the delegation pool contract, or the lending pool */
  pool: string;
  token: Token;
  change:
    | 'stake'
    | 'exit-intent'
    | 'exit'
    | 'claim'
    | 'supply'
    | 'withdraw'
    | 'collateral'
    | 'collateral-withdraw'
    | 'borrow'
    | 'repay';
  amount: bigint;
}

export interface Effects {
  out: OutEffect[];
  in: InEffect[];
  positions: PositionEffect[];
}

export const noEffects = (): Effects => ({ out: [], in: [], positions: [] });

/** What a leg type knows of the plan around it. */
export interface LegPlan {
  network: Network;
  /** the user's account (0x + 64 hex) */
  account: string;
  /** the swap router (0x + 64 hex) */
  router: string;
}

/**
 * One leg type. `effects` is required: a leg type that does not say what it moves does not
 * compile, so the caps, the fingerprint and the simulation check can never wave it through.
 */
export interface LegType<L> {
  /** the exact calls this leg signs, in order */
  calls(leg: L, plan: LegPlan): ChainCall[];
  /**
   * Reads back the calls at `calls[at…]` against the leg (not against what the builder meant);
   * throws a stable code on any difference. Returns how many calls the leg took.
   */
  verify(leg: L, calls: readonly ChainCall[], at: number, index: number, plan: LegPlan): number;
  effects(leg: L, plan: LegPlan): Effects;
  /** what identifies the leg beyond its effects (fingerprint.ts): e.g. a swap's output token */
  identity(leg: L): string[];
  /** the headline's words for the legs of this type, in order (exact amounts) */
  headline(legs: readonly L[], plan: LegPlan): string[];
  /** what the person must acknowledge explicitly before this leg is signed (acknowledgments.ts) */
  acknowledgments?(leg: L, plan: LegPlan, index: number): Acknowledgment[];
  /**
   * what the person consents to beyond what leaves (document.ts `terms`), one fact a line: what
   * arrives and why, a position as it is left (a lending leg's debt, collateral, health factor)
   */
  terms?(leg: L, plan: LegPlan): string[];
  /** each call of this leg in words, read from the call itself (so a wrong call reads wrong) */
  describeCalls(leg: L, calls: readonly ChainCall[], plan: LegPlan): string[];
}
