/**
 * Planning (docs/architecture.md "The action pipeline"): the request resolved into legs by its
 * kind (resolve.ts), the legs' reads (the swaps' quotes, legs/swap-quote.ts) with the balances of
 * what leaves and the account's facts read meanwhile, the calls built (plan.ts) and checked
 * (checks.ts), the paymaster build, the balance check and the simulation of exactly what would
 * be signed. Nothing is signed.
 */
import { formatAmount } from '../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { ROUTER_ADDRESS } from '../../../shared/swap-calldata.js';
import { findToken, type Network, sameAddress, type Token } from '../../../shared/tokens.js';
import type { CallOptions } from '../call.js';
import type { ActionEvent } from '../events.js';
import type { PreparedExecution } from '../chain/execute.js';
import { prefetchAccountFacts } from '../chain/facts.js';
import { readBalances, type TokenBalance } from '../chain/reads.js';
import { paymasterSimulationRevert } from '../chain/errors.js';
import { simulatePrepared } from '../chain/simulate.js';
import { prepareWithFee } from '../execution.js';
import {
  type Balance,
  checkBalances,
  checkPriceImpact,
  checkSimulation,
  CONFIRM_MARGIN_MS,
  EXPIRY_MARGIN_S,
  type GasQuote,
  QUOTE_MAX_AGE_MS,
  type SimulationResult,
  verifyCalls,
  refuseReverted,
} from './checks.js';
import { planDocument } from './document.js';
import { type AcknowledgmentId, requireAcknowledgments } from './acknowledgments.js';
import { effectsOf, legAcknowledgments } from './legs/index.js';
import { namedTokens, readLegs, spentTokens } from './legs/reads.js';
import type {
  ActionContext,
  ActionRequest,
  ExecutionTicket,
  PlannedAction,
  PlanOptions,
  QuoteMode,
} from './pipeline.js';
import { type ActionPlan, buildPlan } from './plan.js';
import { checkKindAfterReads, checkKindSimulation, kindDocument, legsOf } from './resolve.js';
import { readOraclePrices } from '../oracle.js';
import { checkSwapsAgainstOracle } from './oracle-rules.js';

const emit = (call: CallOptions, event: ActionEvent): void => call.onProgress?.(event);

function gasOf(prepared: PreparedExecution, network: Network): GasQuote {
  if (prepared.fee.mode === 'sponsored') return { mode: 'sponsored' };
  const token = findToken(network, prepared.fee.gasToken);
  if (token === undefined)
    throw new AppError(
      ErrorCode.CONFIG_ERROR,
      `the gas token ${prepared.fee.gasToken} is not a ${network} registry token`,
    );
  return {
    mode: 'default',
    token,
    maxFee: prepared.fee.maxInGasToken,
    estimatedFee: prepared.fee.estimatedInGasToken,
  };
}

/** The tokens whose balances the checks need: what leaves the account, and the gas token. */
function involvedTokens(spent: readonly Token[], gasToken: Token): Token[] {
  const tokens: Token[] = [];
  const add = (t: Token | undefined): void => {
    if (t !== undefined && !tokens.some((x) => sameAddress(x.address, t.address))) tokens.push(t);
  };
  for (const t of spent) add(t);
  // read even when gas may be sponsored: the build decides, and a second read would cost a round trip
  add(gasToken);
  return tokens;
}

/** Until when a face may confirm this build (PlannedAction.confirmBy). */
function confirmByOf(plan: ActionPlan, prepared: PreparedExecution): number {
  const oldest = plan.swaps.reduce<number>((t, s) => Math.min(t, s.executing.quotedAt), Infinity);
  const quoteLimit = oldest === Infinity ? Infinity : oldest + QUOTE_MAX_AGE_MS - CONFIRM_MARGIN_MS;
  return Math.min((prepared.expiresAt - EXPIRY_MARGIN_S) * 1000, quoteLimit);
}

interface FinalizeOptions {
  mode: QuoteMode;
  slippageBps: number;
  /** what the person acknowledged so far */
  acknowledged: readonly AcknowledgmentId[];
  /** list the plan's acknowledgments without refusing (the face asks at confirmation) */
  askAtConfirmation: boolean;
  maxFee?: bigint | undefined;
  /** a build again of a plan confirmed with sponsored gas: sponsored or nothing (prepareWithFee) */
  sponsoredOnly?: boolean | undefined;
  /** the plan's own cap on fees, kept for its builds again (PlannedAction.feeCap) */
  feeCap?: bigint | undefined;
  /** the balances of the plan's tokens, read while it was quoted (planAction); default: read with the build */
  balances?: Promise<TokenBalance[]> | undefined;
}

const balancesOf = (
  ctx: ActionContext,
  call: CallOptions,
  tokens: Token[],
): Promise<TokenBalance[]> =>
  readBalances(ctx.account, { tokens, ...(call.signal ? { signal: call.signal } : {}) });

/**
 * Every check on a built plan, then the paymaster build and the balances (in parallel), the
 * balance check, the simulation of exactly the built transaction and its check. `maxFee`
 * refuses a build whose maximum fee is above it (the user's --max-fee, or on a re-build the fee
 * the user confirmed).
 */
/**
 * A build the paymaster refused because its simulation of the fee transfer found no balance left
 * for it: the amounts fit, the gas paid in the same token does not (the refused build quoted no
 * fee, so the refusal says the gas, not a figure). INSUFFICIENT_BALANCE, as when a quote says so.
 */
function noRoomForGas(
  lines: ReadonlyArray<{ token: Token; total: bigint; balance: bigint }>,
  gasToken: Token,
  reason: string,
): void {
  const line = lines.find((l) => sameAddress(l.token.address, gasToken.address));
  if (line === undefined || !/insufficient balance/i.test(reason)) return;
  const named = /contract address: (0x[0-9a-f]+)/i.exec(reason)?.[1];
  if (named === undefined || !sameAddress(named, gasToken.address)) return;
  const show = (amount: bigint): string =>
    `${formatAmount(amount, gasToken.decimals)} ${gasToken.symbol}`;
  throw new AppError(
    ErrorCode.INSUFFICIENT_BALANCE,
    `not enough ${gasToken.symbol}: this needs ${show(line.total)} plus the gas, paid in ${gasToken.symbol}; the account holds ${show(line.balance)}, which leaves no room for the gas (the paymaster's simulation of the fee transfer failed)`,
    {
      details: {
        token: gasToken.symbol,
        address: gasToken.address,
        amount: line.total.toString(),
        available: line.balance.toString(),
      },
    },
  );
}

export async function finalize(
  request: ActionRequest,
  plan: ActionPlan,
  options: FinalizeOptions,
  ctx: ActionContext,
  call: CallOptions,
  ticket: ExecutionTicket,
): Promise<PlannedAction> {
  verifyCalls(plan);
  // a swap whose minimum is worth far less than what leaves, by the oracle, is never signed
  checkSwapsAgainstOracle(plan.swaps, plan.oracle);
  // one confirmation level per plan, decided here: a face that asks at confirmation gets the
  // list; one that gave its acknowledgments up front is refused what it did not give
  const acknowledgments = legAcknowledgments(plan.legs, plan);
  if (!options.askAtConfirmation) requireAcknowledgments(acknowledgments, options.acknowledged);
  const warnings = checkPriceImpact(plan, true);
  const heldNow =
    options.balances ??
    balancesOf(
      ctx,
      call,
      involvedTokens(
        effectsOf(plan.legs, plan).out.map((o) => o.token),
        ctx.fee.gasToken,
      ),
    );
  const [prepared, balances] = await Promise.all([
    prepareWithFee(
      ctx.account,
      plan.calls,
      { ...ctx.fee, maxFee: options.maxFee, sponsoredOnly: options.sponsoredOnly },
      call,
    ).catch(async (error: unknown) => {
      // the paymaster simulates at build (as AVNU does): a revert there is our simulation's
      // revert, after the balance check that would have named a shortfall (without the gas,
      // which the refused build never quoted)
      const reason = paymasterSimulationRevert(error);
      if (reason === undefined) throw error;
      const held = (await heldNow).map((b) => ({ token: b.token.address, amount: b.balance }));
      const lines = checkBalances(plan, { mode: 'sponsored' }, held);
      noRoomForGas(lines, ctx.fee.gasToken, reason);
      return refuseReverted(reason);
    }),
    heldNow,
  ]);
  const gas = gasOf(prepared, ctx.account.network);
  const held: Balance[] = balances.map((b) => ({ token: b.token.address, amount: b.balance }));
  checkBalances(plan, gas, held);
  emit(call, { kind: 'simulating' });
  const simulated = await simulatePrepared(ctx.account, prepared, { signal: call.signal });
  const simulation: SimulationResult =
    simulated.status === 'REVERTED'
      ? { reverted: true, reason: simulated.revertReason ?? 'reverted (no reason given)' }
      : {
          reverted: false,
          transfers: simulated.transfers,
          balanceChanges: simulated.balanceChanges,
        };
  checkSimulation(plan, gas, simulation);
  checkKindSimulation(request, ctx.account.network, simulation);
  const confirmBy = confirmByOf(plan, prepared);
  const document = planDocument(plan, {
    gas,
    balances: held,
    simulation,
    warnings,
    acknowledgments,
    quoteMode: options.mode,
    deploysAccount: prepared.kind === 'deploy_and_invoke',
    confirmBy,
    buildExpiresAt: prepared.expiresAt * 1000,
    ...kindDocument(request, ctx.account.network, simulation),
  });
  return {
    request,
    plan,
    document,
    mode: options.mode,
    slippageBps: options.slippageBps,
    acknowledged: options.acknowledged,
    gas,
    feeCap: options.feeCap,
    prepared,
    confirmBy,
    context: ctx,
    ticket,
  };
}

/**
 * Everything up to the confirmation: the request resolved by its kind's rules, quoted, its calls
 * built and checked, the paymaster build and the balances, the simulation of exactly what would
 * be signed. Nothing is signed.
 */
export async function planPipeline(
  request: ActionRequest,
  options: PlanOptions,
  ctx: ActionContext,
  call: CallOptions = {},
): Promise<PlannedAction> {
  const where = {
    network: ctx.account.network,
    account: ctx.account.address,
    router: ctx.router ?? ROUTER_ADDRESS,
  };
  const legs = legsOf(request, where);
  const slippageBps = options.slippageBps ?? ctx.defaultSlippageBps;
  // what the checks and the build need that does not depend on the legs' reads is read while
  // they run: the balances of the tokens the legs spend and the account's facts (deployed, nonce, …)
  const balances = balancesOf(ctx, call, involvedTokens(spentTokens(legs.specs), ctx.fee.gasToken));
  // awaited after the build (a quote's failure is the one reported); never an unhandled rejection
  balances.catch(() => undefined);
  prefetchAccountFacts(ctx.account, call.signal);
  // the independent price of every token the legs name, in the same round (../oracle.ts)
  const oracle = readOraclePrices(ctx.account, namedTokens(legs.specs), {
    signal: call.signal,
    now: ctx.now,
  });
  oracle.catch(() => undefined);
  // each leg type's reads before planning (a swap's quotes, a stake's membership, a position's state)
  const [read, prices] = await Promise.all([
    readLegs(legs.specs, { ctx, call, mode: legs.mode, slippageBps, balances, oracle }),
    oracle,
  ]);
  // the kind's own checks on what was read, before anything is built
  checkKindAfterReads(request, read, { ...where, oracle: prices });
  const plan = buildPlan({
    kind: request.kind,
    sandbox: ctx.sandbox,
    ...where,
    legs: read,
    oracle: prices,
  });
  const ticket: ExecutionTicket = { state: 'ready', hash: undefined };
  return finalize(
    request,
    plan,
    {
      mode: legs.mode,
      slippageBps,
      acknowledged: [
        ...(options.acknowledged ?? []),
        ...(options.allowHighImpact === true ? (['high-impact'] as const) : []),
      ],
      askAtConfirmation: options.askAtConfirmation === true,
      maxFee: options.maxFee,
      feeCap: options.maxFee,
      balances,
    },
    ctx,
    call,
    ticket,
  );
}
