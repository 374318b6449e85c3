/**
 * How each action kind's request resolves into legs (docs/architecture.md "Adding a leg type"):
 * the rules of rules.ts applied, before any request is made. The kinds and their words are listed
 * once in kinds.ts; this is the one resolver per kind (a missing one fails typecheck). Pure.
 */
import { AppError, ErrorCode, usageError } from '../../../shared/errors.js';
import { ROUTER_ADDRESS } from '../../../shared/swap-calldata.js';
import { parseAmount } from '../../../shared/amount.js';
import { type Network, resolveToken, sameAddress, type Token } from '../../../shared/tokens.js';
import type { ActionKind } from './kinds.js';
import type { PlannedLeg } from './legs/index.js';
import type { LendingSpec } from './legs/lending-read.js';
import type { PlannedTransfer } from './legs/transfer.js';
import { checkLegSpecs, type LegSpec } from './legs/reads.js';
import type { StakingSpec } from './legs/staking-read.js';
import type { LegPlan, LegWhere } from './legs/types.js';
import { lendingPool } from '../lending-pool.js';
import { checkPairCount } from './limits.js';
import { fieldError } from '../remedy.js';
import type { ActionRequest, AfterReads, QuoteMode } from './pipeline.js';
import { checkLegCounts } from './plan.js';
import { checkRebalanceAfter, rebalanceView, resolveRebalance } from './rebalance.js';
import type { SimulationResult } from './checks.js';
import type { DocumentExtras } from './document.js';
import {
  networkAllows,
  parsePositiveAmount,
  type ResolvedPair,
  resolvePair,
  resolveTransfer,
  swapsAllowed,
} from './rules.js';

/**
 * The legs a request makes, before their reads, in call order, every rule applied (each leg type's
 * own and the kind's shape); `mode` is how the swaps' routes are fetched.
 */
export interface Legs {
  specs: LegSpec[];
  mode: QuoteMode;
}

const swapSpec = (pair: ResolvedPair): LegSpec => ({ type: 'swap', pair });
const transferSpec = (transfer: PlannedTransfer): LegSpec => ({ type: 'transfer', transfer });
const single = (spec: LegSpec): Legs => ({ specs: [spec], mode: 'single' });

const validatorKey = (text: unknown): string => {
  if (typeof text !== 'string' || text.trim() === '' || text.length > 100)
    throw fieldError('validator', 'required: a validator name or staker address');
  return text.trim();
};

const stakingOnly = (
  network: Network,
  type: StakingSpec['type'],
  validator: unknown,
  amount?: bigint,
): Legs => {
  networkAllows('staking', network);
  const spec: StakingSpec = {
    type,
    validator: validatorKey(validator),
    token: resolveToken(network, 'STRK'),
    ...(amount === undefined ? {} : { amount }),
  };
  return single(spec);
};

/** An amount of `token`, or undefined for "all" (where `all` is allowed). */
const amountOrAll = (text: string, token: Token): bigint | undefined =>
  text.trim().toLowerCase() === 'all' ? undefined : parsePositiveAmount(text, token);

const lendingOnly = (spec: LendingSpec): Legs => single(spec);

/** A position's pair: the debt token and the collateral, which must differ (the pool refuses identical assets). */
const pairOf = (
  network: Network,
  debt: string,
  collateral: string,
): { debt: Token; collateral: Token } => {
  const d = resolveToken(network, debt);
  const c = resolveToken(network, collateral);
  if (sameAddress(c.address, d.address))
    throw usageError(
      `the collateral and the debt must be different assets (both ${d.symbol}): the pool refuses identical assets`,
    );
  return { debt: d, collateral: c };
};

/**
 * An action kind: how its request resolves into legs (rules.ts applied, before any request). Everything after — quotes, calls, checks, build, simulation, signing, the receipt and
 * the history — is the pipeline's, the same for every kind. See docs/architecture.md "Adding a
 * leg type"; the kinds' words are kinds.ts's table.
 */
interface KindResolver<R extends ActionRequest> {
  resolve(request: R, where: LegWhere): Legs;
  /** the kind's checks after the legs' reads, before the build */
  afterReads?: AfterReads<R>;
  /** what the kind adds to the plan document (a rebalance: its allocation table) */
  document?(request: R, network: Network, simulation: SimulationResult): Partial<DocumentExtras>;
  /** the kind's own check of the simulation, after every leg's (a rebalance: the band reached) */
  checkSimulation?(request: R, network: Network, simulation: SimulationResult): void;
}

type Kinds = { [K in ActionKind]: KindResolver<Extract<ActionRequest, { kind: K }>> };

const sameOutput = (swaps: readonly ResolvedPair[]): boolean =>
  swaps.every((s) => sameAddress(s.to.address, swaps[0]?.to.address ?? ''));

const KINDS: Kinds = {
  send: {
    resolve: (request, where) => single(transferSpec(resolveTransfer(request.transfer, where))),
  },
  trade: {
    resolve: (request, { network }) => {
      swapsAllowed(network);
      return single(swapSpec(resolvePair(network, request.swap)));
    },
  },
  'multi-swap': {
    resolve: (request, { network }) => {
      swapsAllowed(network);
      checkPairCount(request.swaps.length);
      const swaps = request.swaps.map((p) => resolvePair(network, p));
      // one output token: one route batch and one calldata batch; else one request per pair in parallel
      return { specs: swaps.map(swapSpec), mode: sameOutput(swaps) ? 'batch' : 'parallel' };
    },
  },
  batch: {
    resolve: (request, where) => {
      if (request.swaps.length > 0) swapsAllowed(where.network);
      const swaps = request.swaps.map((p) => resolvePair(where.network, p));
      const transfers = request.transfers.map((t) => resolveTransfer(t, where));
      // stakes and supplies: each the same spec as its own command's (the same rules)
      const stakes = (request.stakes ?? []).flatMap(
        (stake) => KINDS.stake.resolve({ kind: 'stake', stake }, where).specs,
      );
      const supplies = (request.supplies ?? []).flatMap(
        (supply) => KINDS.supply.resolve({ kind: 'supply', supply }, where).specs,
      );
      return {
        // the order the calls are signed in
        specs: [...swaps.map(swapSpec), ...transfers.map(transferSpec), ...stakes, ...supplies],
        mode: swaps.length === 1 ? 'single' : 'parallel',
      };
    },
  },
  rebalance: {
    // the targets + the snapshot's balances and prices → swap legs (at most MAX_REBALANCE_LEGS,
    // all in one transaction); nothing to do is ALREADY_BALANCED (rebalance.ts). Each leg is
    // priced with its own route request, in parallel: the aggregator's batch routing (3 pairs)
    // is not used, so its limit does not bound the legs
    resolve: (request, { network }) => {
      swapsAllowed(network);
      const swaps = resolveRebalance(request, network);
      return { specs: swaps.map(swapSpec), mode: swaps.length <= 1 ? 'single' : 'parallel' };
    },
    document: (request, network, simulation) => ({
      rebalance: rebalanceView(request, network, simulation),
    }),
    checkSimulation: (request, network, simulation) =>
      checkRebalanceAfter(request, network, simulation),
  },
  stake: {
    resolve: ({ stake }, { network }) => {
      networkAllows('staking', network);
      const token = resolveToken(network, stake.token ?? 'STRK');
      if (!sameAddress(token.address, resolveToken(network, 'STRK').address))
        throw usageError(`only STRK is staked here (got ${token.symbol})`);
      return stakingOnly(
        network,
        'stake',
        stake.validator,
        parsePositiveAmount(stake.amount, token),
      );
    },
  },
  unstake: {
    // 0 cancels a running exit
    resolve: ({ unstake }, { network }) => {
      const strk = resolveToken(network, 'STRK');
      // the one amount that may be 0 (staking-read.ts refuses it when no exit is running)
      const amount = parseAmount(unstake.amount, strk.decimals, {
        label: strk.symbol,
        allowZero: true,
      });
      return stakingOnly(network, 'unstake-intent', unstake.validator, amount);
    },
  },
  'unstake-complete': {
    resolve: (request, { network }) => stakingOnly(network, 'unstake', request.validator),
  },
  'claim-rewards': {
    resolve: (request, { network }) => stakingOnly(network, 'claim', request.validator),
  },
  supply: {
    resolve: ({ supply }, { network }) => {
      const pool = lendingPool(network, supply.pool);
      const token = resolveToken(network, supply.token);
      return lendingOnly({
        type: 'supply',
        pool,
        token,
        amount: parsePositiveAmount(supply.amount, token),
      });
    },
  },
  withdraw: {
    resolve: ({ withdraw }, { network }) => {
      const pool = lendingPool(network, withdraw.pool);
      const token = resolveToken(network, withdraw.token);
      return lendingOnly({
        type: 'withdraw',
        pool,
        token,
        amount: amountOrAll(withdraw.amount, token),
      });
    },
  },
  borrow: {
    resolve: ({ borrow }, { network }) => {
      const pool = lendingPool(network, borrow.pool);
      const { debt, collateral } = pairOf(network, borrow.token, borrow.collateral);
      return lendingOnly({
        type: 'position',
        action: 'borrow',
        pool,
        token: debt,
        collateral,
        amount: parsePositiveAmount(borrow.amount, debt),
        ...(borrow.collateralAmount === undefined
          ? {}
          : { collateralAmount: parsePositiveAmount(borrow.collateralAmount, collateral) }),
      });
    },
  },
  repay: {
    resolve: ({ repay }, { network }) => {
      const pool = lendingPool(network, repay.pool);
      const { debt, collateral } = pairOf(network, repay.token, repay.collateral);
      return lendingOnly({
        type: 'position',
        action: 'repay',
        pool,
        token: debt,
        collateral,
        amount: amountOrAll(repay.amount, debt),
      });
    },
  },
  'close-position': {
    resolve: ({ close }, { network }) => {
      const pool = lendingPool(network, close.pool);
      const { debt, collateral } = pairOf(network, close.debt, close.collateral);
      return lendingOnly({ type: 'position', action: 'close', pool, token: debt, collateral });
    },
  },
  // a position may hold collateral only: adding needs no debt (docs/decisions.md)
  'add-collateral': {
    resolve: ({ collateral: spec }, { network }) => {
      const pool = lendingPool(network, spec.pool);
      const { debt, collateral } = pairOf(network, spec.debt, spec.token);
      return lendingOnly({
        type: 'position',
        action: 'add-collateral',
        pool,
        token: debt,
        collateral,
        collateralAmount: parsePositiveAmount(spec.amount, collateral),
      });
    },
  },
  'withdraw-collateral': {
    resolve: ({ collateral: spec }, { network }) => {
      const pool = lendingPool(network, spec.pool);
      const { debt, collateral } = pairOf(network, spec.debt, spec.token);
      const amount = amountOrAll(spec.amount, collateral);
      return lendingOnly({
        type: 'position',
        action: 'withdraw-collateral',
        pool,
        token: debt,
        collateral,
        ...(amount === undefined ? {} : { collateralAmount: amount }),
      });
    },
  },
};

const resolverOf = (request: ActionRequest): KindResolver<ActionRequest> => {
  const kind = KINDS[request.kind] as KindResolver<ActionRequest> | undefined;
  // a guard that cannot classify its input refuses it
  if (kind === undefined)
    throw new AppError(
      ErrorCode.USAGE_ERROR,
      `unknown action kind "${String((request as { kind?: unknown }).kind).slice(0, 40)}"`,
    );
  return kind;
};

/** What the request's kind adds to its plan document. */
export function kindDocument(
  request: ActionRequest,
  network: Network,
  simulation: SimulationResult,
): Partial<DocumentExtras> {
  return resolverOf(request).document?.(request, network, simulation) ?? {};
}

/** The request's kind's own check of the simulation (after every leg's check). */
export function checkKindSimulation(
  request: ActionRequest,
  network: Network,
  simulation: SimulationResult,
): void {
  resolverOf(request).checkSimulation?.(request, network, simulation);
}

/** The kind's checks after the legs' reads, before the build (KindResolver.afterReads). */
export function checkKindAfterReads(
  request: ActionRequest,
  legs: readonly PlannedLeg[],
  plan: LegPlan,
): void {
  resolverOf(request).afterReads?.(request, legs, plan);
}

/** The request's legs, before their reads: the kind's shape and each leg's own rules applied. */
export function legsOf(request: ActionRequest, where: LegWhere): Legs {
  const legs = resolverOf(request).resolve(request, where);
  // counts, and each leg's rules (a transfer's recipient), before any request
  checkLegCounts(request.kind, legs.specs);
  return { ...legs, specs: checkLegSpecs(legs.specs, where) };
}

/**
 * The rules a request can be held to before anything else (the session included): a request
 * that can never be planned on `network` is refused as such, not as "sign in first".
 */
export function checkActionRequest(request: ActionRequest, network: Network): void {
  legsOf(request, { network, account: undefined, router: ROUTER_ADDRESS });
}
