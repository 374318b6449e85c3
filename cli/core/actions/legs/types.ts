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
import type { OraclePrices } from '../../oracle.js';
import type { Network, Token } from '../../../../shared/tokens.js';
import type { ChainCall } from '../../chain/calls.js';
import type { Acknowledgment } from '../acknowledgments.js';
import type { CallOptions } from '../../call.js';
import type { TokenBalance } from '../../chain/reads.js';
import type { ActionContext, QuoteMode } from '../pipeline.js';

/** A position's changes (the `position` leg type's actions), listed once. */
export const POSITION_ACTIONS = [
  'borrow',
  'repay',
  'close',
  'add-collateral',
  'withdraw-collateral',
] as const;
export type PositionAction = (typeof POSITION_ACTIONS)[number];

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
  /** with `expected`: the chain time (seconds) it is as of — the debt read, interest to then */
  expectedAsOf?: number | undefined;
  /**
   * the USD price an outside service quoted for this token with the leg (a swap's route), as
   * sent: the caps value the outflow with it (caps.ts planOutflows, value.ts); absent, they ask for one
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

/**
 * An exact amount of a token as the plan document lists it (docs/commands.md "Plan JSON"):
 * `baseUnits` is the exact integer, `amount` the same value in decimal units, never rounded.
 */
export interface LegAmount {
  /** the token's symbol */
  token: string;
  /** the token's contract (0x + 64 hex) */
  tokenAddress: string;
  amount: string;
  baseUnits: string;
}

/** A token of the plan's network, without an amount (a lending pair's tokens). */
export interface LegTokenRef {
  symbol: string;
  address: string;
}

/** A staking leg's validator: its name, its staker address and its delegation pool. */
export interface LegValidator {
  name: string;
  staker: string;
  pool: string;
}

/** A Vesu pool: its name and address. */
export interface LegPool {
  name: string;
  address: string;
}

/**
 * A leg as the plan document lists it (`legs`, one per leg, in call order): its type and its
 * own structured fields, exact. Each leg type describes itself (`LegType.describe`); no face
 * derives these from the words or the calls.
 */
export type LegView =
  | {
      type: 'swap';
      /** leaves exactly (the router is approved for exactly this) */
      sell: LegAmount;
      /** arrives at least: the minimum the person confirmed */
      minimum: LegAmount;
      /** what the executing quote expects, net of the service fee (not guaranteed) */
      expected: LegAmount;
      slippageBps: number;
      router: string;
    }
  | { type: 'transfer'; amount: LegAmount; to: string }
  | {
      type: 'stake';
      amount: LegAmount;
      validator: LegValidator;
      /** enter: a first stake in this pool; add: to the account's stake */
      entry: 'enter' | 'add';
    }
  | {
      type: 'unstake-intent';
      /** the amount the exit window starts for; 0 cancels the running exit */
      amount: LegAmount;
      cancel: boolean;
      validator: LegValidator;
    }
  | { type: 'unstake'; amount: LegAmount; validator: LegValidator }
  | {
      type: 'claim';
      /** at least: the unclaimed rewards as read (the pool pays what is unclaimed when it runs) */
      amount: LegAmount;
      validator: LegValidator;
      /** where the pool pays the rewards (may not be the account) */
      rewardAddress: string;
    }
  | { type: 'supply'; amount: LegAmount; pool: LegPool; vToken: string }
  | {
      type: 'withdraw';
      pool: LegPool;
      vToken: string;
      /** all: every share is redeemed (`shares`), worth at least `minimum` */
      all: boolean;
      /** arrives exactly (an amount); absent for all */
      amount?: LegAmount;
      /** arrives at least (all); absent for an amount */
      minimum?: LegAmount;
      shares?: string;
    }
  | {
      type: 'position';
      action: PositionAction;
      pool: LegPool;
      collateralToken: LegTokenRef;
      debtToken: LegTokenRef;
      /** collateral deposited, exactly (the pool is approved for exactly this) */
      deposit?: LegAmount;
      /** collateral withdrawn: an amount, exactly; all (every share), at least `minimum` */
      withdrawCollateral?: { all: false; amount: LegAmount } | { all: true; minimum: LegAmount };
      /** borrowed: arrives exactly */
      borrow?: LegAmount;
      /**
       * repaid: an amount, exactly; all (the whole nominal debt): the pool is approved for at
       * most `maximum` (the debt read plus a margin), cleared to 0 after
       */
      repay?:
        | { all: false; amount: LegAmount }
        | { all: true; maximum: LegAmount; nominalDebt: string };
      /** the health factor before and after, as the plan words it (null: no debt) */
      health: { before: string | null; after: string | null };
    };

type LegTypeOf<L> = L extends { type: infer T } ? T : never;

/** What a leg type knows of the plan around it. */
export interface LegPlan {
  network: Network;
  /** the user's account (0x + 64 hex) */
  account: string;
  /** the swap router (0x + 64 hex) */
  router: string;
  /** Pragma's prices of the plan's tokens, when read (../../oracle.ts) */
  oracle?: OraclePrices | undefined;
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
  /**
   * its rules on the leg as built, applied again when the plan is built (plan.ts buildPlan):
   * a leg a request names as it is signed (a transfer) is held to the same rules before any
   * request (its LegSource.check); returns it normalised
   */
  check?(leg: L, where: LegWhere): L;
  /** what identifies the leg beyond its effects (fingerprint.ts): e.g. a swap's output token */
  identity(leg: L): string[];
  /** the headline's words for the legs of this type, in order (exact amounts) */
  headline(legs: readonly L[], plan: LegPlan): string[];
  /** what the person must acknowledge explicitly before this leg is signed (acknowledgments.ts) */
  acknowledgments?(leg: L, plan: LegPlan, index: number): Acknowledgment[];
  /**
   * the leg as the plan document lists it (`legs`): its type and exact fields. Required: a leg
   * type that does not describe itself does not compile (and legs/describe.test.ts fails).
   */
  describe(leg: L, plan: LegPlan): Extract<LegView, { type: LegTypeOf<L> }>;
  /**
   * what the person consents to beyond what leaves (document.ts `terms`), one fact a line: what
   * arrives and why, a position as it is left (a lending leg's debt, collateral, health factor)
   */
  terms?(leg: L, plan: LegPlan): string[];
  /** each call of this leg in words, read from the call itself (so a wrong call reads wrong) */
  describeCalls(leg: L, calls: readonly ChainCall[], plan: LegPlan): string[];
  /**
   * What the leg's terms depend on, and whether it moved (docs/architecture.md "Still true when
   * signed"): `planned` is the leg as reviewed, `now` the same request read again from the chain
   * right before signing. The changes that would make the signed calls revert or do something
   * else than the review said, in words (empty: the plan is still true). Required: a leg type
   * that does not say what its terms depend on does not compile. A leg read from nothing that
   * can move (a transfer; a swap, whose quote execute.ts re-quotes) returns [].
   */
  moved(planned: L, now: L, plan: LegPlan): string[];
}

/** Where a plan is made, for the rules a leg is held to before any request (rules.ts). */
export interface LegWhere {
  network: Network;
  /** the sender; undefined before the session is known (the rules that need it wait) */
  account: string | undefined;
  router: string;
}

/** What a leg type's reads get: the context, and the plan's other reads under way beside them. */
export interface LegReadContext {
  ctx: ActionContext;
  call: CallOptions;
  /** how the swaps' routes are fetched (resolve.ts) */
  mode: QuoteMode;
  slippageBps: number;
  /** the balances of what the plan spends, being read (planning only) */
  balances?: Promise<readonly TokenBalance[]> | undefined;
  /** Pragma's prices of the tokens the plan names, being read */
  oracle?: Promise<OraclePrices> | undefined;
}

/**
 * A leg type before its reads (docs/architecture.md "Adding a leg type"): the leg as a request
 * names it (`S`, made by resolve.ts) and what it takes to become a leg (`L`). Each leg type
 * declares what it spends and what it reads; the plan's balance reads, its oracle prices, its
 * shape check and its reads before planning and again before signing are derived from these, for
 * every leg alike (legs/reads.ts).
 */
export interface LegSource<S, L> {
  /** the tokens leaving the account: their balances are read with the plan's other reads */
  spends(spec: S): Token[];
  /** every token the leg names (what leaves, what arrives, a position's assets): Pragma prices them */
  names(spec: S): Token[];
  /** its rules before any request, on the leg as named (a transfer's recipient); returns it normalised */
  check?(spec: S, where: LegWhere): S;
  /**
   * what its terms depend on is read from the chain: read again right before signing (recheck.ts);
   * `oracle`: that read holds prices against Pragma's, so the oracle is read again with it
   */
  reread?: { oracle: boolean } | undefined;
  /** its reads before planning, for every leg of this type at once (in order): the legs */
  read(specs: readonly S[], reads: LegReadContext): Promise<L[]>;
}
