/**
 * The tool server's plan tools, one per action kind (docs/architecture.md "Tool server"): each
 * entry is the kind's words for an agent, its input schema and how an input becomes the core's
 * action request. The map is keyed by the kinds table (cli/core/actions/kinds.ts), so a kind
 * without a plan tool fails typecheck; the tool's name is the table's (`ACTION_KINDS[kind].tool`).
 * A rebalance is the one kind with its own tool (server.ts): it answers "balanced" when nothing is
 * to be done, which is not a plan.
 */
import type * as z from 'zod';
import type { ActionKind } from '../core/actions/kinds.js';
import type { ActionRequest } from '../core/actions/index.js';
import { inputs } from './schemas.js';

/** Every kind with a plain plan tool. */
export type PlanToolKind = Exclude<ActionKind, 'rebalance'>;

type PlanInput = (typeof inputs)[
  | 'send'
  | 'trade'
  | 'multiSwap'
  | 'batch'
  | 'stake'
  | 'unstake'
  | 'unstakeComplete'
  | 'claimRewards'
  | 'supply'
  | 'withdraw'
  | 'borrow'
  | 'repay'
  | 'closePosition'
  | 'addCollateral'
  | 'withdrawCollateral'];

export interface PlanTool {
  title: string;
  /** what the tool plans; the server adds what every plan tool returns */
  description: string;
  schema: PlanInput;
  /** the input (as the schema parsed it) → the core's request */
  request: (input: never) => ActionRequest;
}

/** A kind's tool: its request is of that kind. */
export interface KindPlanTool<K extends PlanToolKind> extends PlanTool {
  request: (input: never) => Extract<ActionRequest, { kind: K }>;
}

/** One entry, its request typed by its own schema. */
const tool = <K extends PlanToolKind, S extends PlanInput>(
  title: string,
  description: string,
  schema: S,
  request: (input: z.output<S>) => Extract<ActionRequest, { kind: K }>,
): KindPlanTool<K> => ({ title, description, schema, request });

export const PLAN_TOOLS: { readonly [K in PlanToolKind]: KindPlanTool<K> } = {
  send: tool(
    'Plan a transfer',
    'Plans sending an amount of a token to an address.',
    inputs.send,
    (i) => ({ kind: 'send', transfer: { amount: i.amount, token: i.token, to: i.to } }),
  ),
  trade: tool(
    'Plan a swap',
    'Plans swapping an amount of one token for another (approve then swap, one transaction).',
    inputs.trade,
    (i) => ({ kind: 'trade', swap: { amount: i.amount, from: i.from, to: i.to } }),
  ),
  'multi-swap': tool(
    'Plan 2–3 swaps',
    'Plans 2 or 3 swaps in one transaction.',
    inputs.multiSwap,
    (i) => ({ kind: 'multi-swap', swaps: i.pairs }),
  ),
  batch: tool(
    'Plan a batch',
    'Plans up to 3 swaps, up to 5 transfers, supplies (to the main Vesu pool) and stakes in one transaction (swaps first, then transfers, stakes, supplies).',
    inputs.batch,
    (i) => ({
      kind: 'batch',
      swaps: i.swaps,
      transfers: i.sends,
      supplies: i.supplies,
      stakes: i.stakes,
    }),
  ),
  stake: tool(
    'Plan a stake',
    "Plans staking STRK with a validator's delegation pool (approve, then enter the pool or add to the stake, chosen from the chain). A validator that is leaving, or whose staker was removed, is refused (VALIDATOR_INACTIVE).",
    inputs.stake,
    (i) => ({ kind: 'stake', stake: { amount: i.amount, validator: i.validator } }),
  ),
  unstake: tool(
    'Plan an exit from staking',
    'Plans starting the exit window for an amount of staked STRK (0 cancels a running exit). A new exit replaces a running one and restarts its timer: the person is asked to accept that at execute_plan (an agent cannot accept it for them; a host that cannot ask gets ACKNOWLEDGMENT_REQUIRED).',
    inputs.unstake,
    (i) => ({ kind: 'unstake', unstake: { amount: i.amount, validator: i.validator } }),
  ),
  'unstake-complete': tool(
    'Plan a withdrawal of exited stake',
    'Plans withdrawing the exited STRK once its window has passed (before: EXIT_NOT_READY with the time left).',
    inputs.unstakeComplete,
    (i) => ({ kind: 'unstake-complete', validator: i.validator }),
  ),
  'claim-rewards': tool(
    'Plan a claim of staking rewards',
    'Plans claiming exactly the unclaimed staking rewards of a pool, paid to the reward address (said when it is not this wallet).',
    inputs.claimRewards,
    (i) => ({ kind: 'claim-rewards', validator: i.validator }),
  ),
  supply: tool(
    'Plan a supply to a Vesu pool',
    "Plans supplying a token to a Vesu lending pool to earn interest: approve the pool's vToken for exactly the amount, then deposit. No pool on sepolia: refused.",
    inputs.supply,
    (i) => ({ kind: 'supply', supply: { amount: i.amount, token: i.token, pool: i.pool } }),
  ),
  withdraw: tool(
    'Plan a withdrawal from a Vesu pool',
    'Plans withdrawing a supplied token (an amount, or "all": every vToken share).',
    inputs.withdraw,
    (i) => ({ kind: 'withdraw', withdraw: { amount: i.amount, token: i.token, pool: i.pool } }),
  ),
  borrow: tool(
    'Plan a borrow on Vesu',
    "Plans borrowing against collateral (deposited with it when collateralAmount is given) in one modify_position. The plan's headline shows the health factor before → after; at or below 1 it is refused; below 1.2 the person is asked to accept the risk at execute_plan (an agent cannot accept it for them; a host that cannot ask gets ACKNOWLEDGMENT_REQUIRED).",
    inputs.borrow,
    (i) => ({
      kind: 'borrow',
      borrow: {
        amount: i.amount,
        token: i.debt,
        collateral: i.collateral,
        collateralAmount: i.collateralAmount,
        pool: i.pool,
      },
    }),
  ),
  repay: tool(
    'Plan a repayment on Vesu',
    'Plans repaying a debt (an amount, or "all": the whole nominal debt, no dust). The collateral stays in the position.',
    inputs.repay,
    (i) => ({
      kind: 'repay',
      repay: { amount: i.amount, token: i.debt, collateral: i.collateral, pool: i.pool },
    }),
  ),
  'close-position': tool(
    'Plan closing a Vesu position',
    'Plans repaying the whole debt and withdrawing all the collateral of a position in one transaction.',
    inputs.closePosition,
    (i) => ({
      kind: 'close-position',
      close: { collateral: i.collateral, debt: i.debt, pool: i.pool },
    }),
  ),
  'add-collateral': tool(
    'Plan adding collateral on Vesu',
    "Plans adding collateral to a position without borrowing: approve the pool for exactly the amount, then one modify_position (debt unchanged). The plan's headline shows the health factor before → after. The position needs no debt yet.",
    inputs.addCollateral,
    (i) => ({
      kind: 'add-collateral',
      collateral: { amount: i.amount, token: i.collateral, debt: i.debt, pool: i.pool },
    }),
  ),
  'withdraw-collateral': tool(
    'Plan withdrawing collateral on Vesu',
    'Plans withdrawing collateral from a position without closing it (an amount, or "all": every collateral share, no dust), in one modify_position (debt unchanged). With a debt the health factor after is checked: at or below 1 refused; below 1.2 the person is asked to accept the risk at execute_plan (an agent cannot accept it for them; a host that cannot ask gets ACKNOWLEDGMENT_REQUIRED). More than the position holds: INVALID_AMOUNT.',
    inputs.withdrawCollateral,
    (i) => ({
      kind: 'withdraw-collateral',
      collateral: { amount: i.amount, token: i.collateral, debt: i.debt, pool: i.pool },
    }),
  ),
};

/** The plan tools' kinds in the kinds table's order (rebalance apart). */
export const planToolKinds = (kinds: readonly ActionKind[]): PlanToolKind[] =>
  kinds.filter((k): k is PlanToolKind => k !== 'rebalance');
