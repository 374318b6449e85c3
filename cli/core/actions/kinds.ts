/**
 * The action kinds, listed once (docs/architecture.md "Adding a leg type"): the requests a face
 * sends to the pipeline, each composing legs (legs/). Every face derives its list from this
 * table — the headless commands' help, the tool server's plan tools, the app's menu and review
 * titles, the history's labels, the docs' command table — through `Record<ActionKind, …>`
 * maps, so a kind missing from a face fails typecheck, and test/kinds-faces.test.ts fails when
 * a face leaves one out. Each row is the kind's one declaration: its words, and beside them its
 * parameters and the one mapping from their values to the core's request (kind-params.ts), which
 * the headless commands, the tool server's plan tools and the app all go through. Its resolver is
 * resolve.ts's entry under the same key (a kind without one fails typecheck there). Pure data:
 * type imports only, so the lightest face may read it.
 */
import type { ErrorCode } from '../../../shared/errors.js';
import type { ActionRequest } from './pipeline.js';
import { param, type GivenValues, type KindParams, type Params } from './kind-params.js';

interface ActionKindInfo {
  /** one word as a title: the plan's and the history's label */
  label: string;
  /** the headless command that plans it (`unstake --complete` is a flag of `unstake`) */
  command: string;
  /** the headless help's line for the command */
  summary: string;
  /**
   * what it does, in a few sentences any face may show (the tool's description, the command's
   * help): the program's own words, naming no face's flag or command
   */
  about: string;
  /** the tool server's plan tool */
  tool: string;
  /** the app's review title */
  review: string;
  /** the app's receipt headline */
  done: string;
  /** the app's home menu entry; null: reached from another screen (named in `via`) */
  menu: string | null;
  via?: string;
  /**
   * the acknowledgments its plan can ask (acknowledgments.ts ACKNOWLEDGMENT_IDS; absent: none):
   * a face offers a way to give one up front (a flag) only where it can mean something
   */
  acknowledges?: readonly (
    | 'high-impact'
    | 'high-slippage'
    | 'exit-restart'
    | 'low-health'
    | 'unknown-pool'
  )[];
  /**
   * the refusal that is this kind's answer, not a failure — nothing to do (a rebalance already
   * within its band): its code, and the status a face answers with, exit 0, nothing signed, the
   * refusal's message and details beside it; each face words every AnswerCode (typecheck)
   */
  answers?: { code: AnswerCode; status: string };
}

/** The refusals a kind may declare as its answer (`answers`): each face has words for each. */
export type AnswerCode = typeof ErrorCode.ALREADY_BALANCED;

/** A kind's whole declaration: its words and its parameters (kind-params.ts). */
export interface KindDeclaration extends ActionKindInfo {
  params: Params;
  request: (values: never) => ActionRequest;
}

/** One row: the words as written (literals kept), the parameters and their request typed together. */
/** The Vesu pool every lending kind may name (its default: the network's main pool). */
const POOL_PARAM = param({
  type: 'pool',
  required: false,
  label: 'Pool',
  help: "the Vesu pool, its name or address (default: the network's main pool: Prime on mainnet, WBTC Prime Sepolia on sepolia; a sandbox has its shape's)",
  headless: { flag: 'pool', value: 'NAME|ADDRESS' },
});

/** A position's debt token, which with its collateral names the position. */
const DEBT_PARAM = param({
  type: 'token',
  required: true,
  label: 'Debt',
  help: "the position's debt token (a symbol or its 0x address); with the collateral, it names the position",
  hint: 'the debt token',
  headless: { flag: 'debt', value: 'TOKEN' },
});

const declare = <
  K extends ActionRequest['kind'],
  const W extends ActionKindInfo,
  const P extends Params,
>(
  _kind: K,
  row: W & KindParams<K, P>,
): W & KindParams<K, P> => row;

const TABLE = {
  send: declare('send', {
    label: 'Send',
    command: 'send',
    summary: 'send a token to an address',
    about: 'Sends an amount of a token to an address: one transfer, checked and simulated.',
    tool: 'plan_send',
    review: 'Review the transfer',
    done: 'Sent',
    menu: 'Send',
    params: {
      amount: param({
        type: 'amount',
        required: true,
        label: 'Amount',
        help: 'the amount to send, in token units',
        in: 'token',
        headless: { positional: 0, word: '<amount>' },
      }),
      token: param({
        type: 'token',
        required: true,
        label: 'Token',
        help: 'the token: a symbol or its 0x address',
        headless: { positional: 1, word: '<token>' },
      }),
      to: param({
        type: 'address',
        required: true,
        label: 'To',
        help: 'the recipient address',
        headless: { positional: 2, word: '<to>' },
      }),
    },
    request: (v) => ({ kind: 'send', transfer: { amount: v.amount, token: v.token, to: v.to } }),
  }),
  trade: declare('trade', {
    label: 'Trade',
    command: 'trade',
    summary: 'swap one token for another',
    about:
      'Swaps an amount of one token for another: approve exactly the amount, then swap, in one transaction.',
    tool: 'plan_trade',
    review: 'Review the swap',
    done: 'Swap confirmed',
    menu: 'Trade',
    acknowledges: ['high-impact', 'high-slippage'],
    params: {
      amount: param({
        type: 'amount',
        required: true,
        label: 'Amount',
        help: 'the amount to sell, in units of the token sold',
        in: 'from',
        headless: { positional: 0, word: '<amount>' },
      }),
      from: param({
        type: 'token',
        required: true,
        label: 'From',
        help: 'the token sold: a symbol or its 0x address',
        headless: { positional: 1, word: '<from>' },
      }),
      to: param({
        type: 'token',
        required: true,
        label: 'To',
        help: 'the token bought: a symbol or its 0x address',
        headless: { positional: 2, word: '<to>' },
      }),
    },
    request: (v) => ({ kind: 'trade', swap: { amount: v.amount, from: v.from, to: v.to } }),
  }),
  'multi-swap': declare('multi-swap', {
    label: 'Multi-swap',
    command: 'multi-swap',
    summary: '2–3 swaps in one transaction',
    about: 'Makes 2 or 3 swaps in one transaction.',
    tool: 'plan_multi_swap',
    review: 'Review the multi-swap',
    done: 'Multi-swap confirmed',
    menu: 'Multi-swap',
    acknowledges: ['high-impact', 'high-slippage'],
    params: {
      pairs: param({
        type: 'pairs',
        required: true,
        label: 'Swaps',
        help: '2–3 swaps "AMOUNT FROM>TO", comma separated',
        headless: {
          flag: 'pairs',
          value: 'LIST',
          list: 'commas',
          example: '"100 USDC>ETH, 50 STRK>ETH"',
        },
        items: { min: 2, max: 3, instead: 'trade' },
      }),
    },
    request: (v) => ({ kind: 'multi-swap', swaps: v.pairs }),
  }),
  batch: declare('batch', {
    label: 'Batch',
    command: 'batch',
    summary: 'swaps and transfers in one transaction',
    about:
      'Makes up to 3 swaps, up to 5 transfers, supplies (to the main Vesu pool) and stakes in one transaction (swaps first, then transfers, stakes, supplies).',
    tool: 'plan_batch',
    review: 'Review the batch',
    done: 'Batch confirmed',
    menu: 'Batch',
    acknowledges: ['high-impact', 'high-slippage'],
    params: {
      swaps: param({
        type: 'pairs',
        required: false,
        label: 'Swaps',
        help: 'swaps, "AMOUNT FROM>TO" each (at most 3)',
        headless: { flag: 'swap', value: '"AMOUNT FROM>TO"', list: 'each' },
        items: { min: 0, max: 3 },
      }),
      sends: param({
        type: 'transfers',
        required: false,
        label: 'Transfers',
        help: 'plain transfers, "AMOUNT TOKEN>ADDRESS" each (at most 5)',
        headless: { flag: 'send', value: '"AMOUNT TOKEN>ADDRESS"', list: 'each' },
        items: { min: 0, max: 5 },
      }),
      supplies: param({
        type: 'supplies',
        required: false,
        label: 'Supplies',
        help: 'supplies to the network\'s main Vesu pool, "AMOUNT TOKEN" each (at most 5)',
        headless: { flag: 'supply', value: '"AMOUNT TOKEN"', list: 'each' },
        items: { min: 0, max: 5 },
      }),
      stakes: param({
        type: 'stakes',
        required: false,
        label: 'Stakes',
        help: 'stakes with validators, "AMOUNT TOKEN>VALIDATOR" each (at most 5)',
        headless: { flag: 'stake', value: '"AMOUNT TOKEN>VALIDATOR"', list: 'each' },
        items: { min: 0, max: 5 },
      }),
    },
    request: (v) => ({
      kind: 'batch',
      swaps: v.swaps ?? [],
      transfers: v.sends ?? [],
      ...(v.supplies?.length ? { supplies: v.supplies } : {}),
      ...(v.stakes?.length ? { stakes: v.stakes } : {}),
    }),
  }),
  rebalance: declare('rebalance', {
    label: 'Rebalance',
    command: 'portfolio-rebalance',
    summary: 'move the wallet to a target allocation',
    about:
      'Moves the wallet to a target allocation ("50 ETH, 30 USDC, 20 STRK", adding up to 100) in one transaction of up to 8 swaps (each priced on its own), at fresh prices; a run that could not end within the band is refused before signing (REBALANCE_OUTSIDE_BAND, details.reason). Tokens the target does not name are kept (shares are then of the named tokens together) unless unlisted tokens are sold. When every token is within the band of its target, nothing is planned.',
    tool: 'plan_rebalance',
    review: 'Review the rebalance',
    done: 'Rebalance confirmed',
    menu: null,
    via: 'Portfolio',
    acknowledges: ['high-impact', 'high-slippage'],
    answers: { code: 'ALREADY_BALANCED', status: 'balanced' },
    params: {
      target: param({
        type: 'allocation',
        required: true,
        label: 'Target',
        help: 'the target allocation as "PERCENT TOKEN, …" adding up to exactly 100, at most two decimals each, e.g. "50 ETH, 30 USDC, 20 STRK"',
        headless: { flag: 'target', value: 'LIST', example: '"50 ETH, 30 USDC, 20 STRK"' },
      }),
      sellUnlisted: param({
        type: 'switch',
        required: false,
        label: 'Sell unlisted',
        help: 'sell every held token the target does not name; the shares are then of the whole wallet (default: they are kept, and the shares are of the named tokens together)',
        headless: { flag: 'sell-unlisted', value: '' },
      }),
      band: param({
        type: 'percent',
        required: false,
        label: 'Band',
        help: 'no trade while every token is within this many percentage points of its target (default 2)',
        headless: { flag: 'band', value: 'PP' },
      }),
      minTrade: param({
        type: 'usd',
        required: false,
        label: 'Minimum trade',
        help: 'make no swap worth less than this, in USD (default 1)',
        headless: { flag: 'min-trade', value: 'USD' },
      }),
    },
    request: (v) => ({
      kind: 'rebalance',
      rebalance: {
        target: v.target,
        sellUnlisted: v.sellUnlisted === true,
        band: v.band,
        minTrade: v.minTrade,
      },
    }),
  }),
  stake: declare('stake', {
    label: 'Stake',
    command: 'stake',
    summary: 'stake STRK with a validator (delegation pool)',
    about:
      "Stakes STRK with a validator's delegation pool (approve, then enter the pool or add to the stake, chosen from the chain). A validator that is leaving, or whose staker was removed, is refused (VALIDATOR_INACTIVE).",
    tool: 'plan_stake',
    review: 'Review the stake',
    done: 'Staked',
    menu: null,
    via: 'Staking',
    params: {
      amount: param({
        type: 'amount',
        required: true,
        label: 'Amount',
        help: 'the STRK to stake',
        in: 'token',
        hint: 'to stake',
        headless: { positional: 0, word: '<amount>' },
      }),
      token: param({
        type: 'token',
        required: false,
        label: 'Token',
        help: 'the token staked (STRK, the default: the only one a delegation pool takes)',
        headless: { positional: 1, word: '[STRK]' },
      }),
      validator: param({
        type: 'validator',
        required: true,
        label: 'Validator',
        help: 'the validator: a preset name (the staking read lists them) or a staker address',
        headless: { flag: 'validator', value: 'V' },
      }),
    },
    request: (v) => ({
      kind: 'stake',
      stake: {
        amount: v.amount,
        validator: v.validator,
        ...(v.token === undefined ? {} : { token: v.token }),
      },
    }),
  }),
  unstake: declare('unstake', {
    label: 'Unstake',
    command: 'unstake',
    summary: 'start the exit of staked STRK (0 cancels; --complete withdraws after the window)',
    about:
      'Starts the exit window for an amount of staked STRK (0 cancels a running exit). A new exit replaces a running one and restarts its timer.',
    tool: 'plan_unstake',
    review: 'Review the exit',
    done: 'Exit started',
    menu: null,
    via: 'Staking',
    acknowledges: ['exit-restart'],
    params: {
      amount: param({
        type: 'amount',
        required: true,
        label: 'Amount',
        help: 'STRK to take out of the pool (0 cancels a running exit)',
        hint: 'to exit (0 cancels)',
        headless: { positional: 0, word: '<amount>' },
      }),
      validator: param({
        type: 'validator',
        required: true,
        label: 'Validator',
        help: 'the validator: a preset name (the staking read lists them) or a staker address',
        headless: { flag: 'validator', value: 'V' },
      }),
    },
    request: (v) => ({ kind: 'unstake', unstake: { amount: v.amount, validator: v.validator } }),
  }),
  'unstake-complete': declare('unstake-complete', {
    label: 'Withdraw',
    command: 'unstake --complete',
    summary: 'withdraw staked STRK once its exit window has passed',
    about:
      'Withdraws the exited STRK once its window has passed (before: EXIT_NOT_READY with the time left).',
    tool: 'plan_unstake_complete',
    review: 'Review the withdrawal',
    done: 'Withdrawn',
    menu: null,
    via: 'Staking',
    params: {
      validator: param({
        type: 'validator',
        required: true,
        label: 'Validator',
        help: 'the validator: a preset name (the staking read lists them) or a staker address',
        headless: { flag: 'validator', value: 'V' },
      }),
    },
    request: (v) => ({ kind: 'unstake-complete', validator: v.validator }),
  }),
  'claim-rewards': declare('claim-rewards', {
    label: 'Claim rewards',
    command: 'claim-rewards',
    summary: "claim a validator pool's staking rewards",
    about:
      'Claims exactly the unclaimed staking rewards of a pool, paid to the reward address (said when it is not this wallet).',
    tool: 'plan_claim_rewards',
    review: 'Review the claim',
    done: 'Rewards claimed',
    menu: null,
    via: 'Staking',
    params: {
      validator: param({
        type: 'validator',
        required: true,
        label: 'Validator',
        help: 'the validator: a preset name (the staking read lists them) or a staker address',
        headless: { flag: 'validator', value: 'V' },
      }),
    },
    request: (v) => ({ kind: 'claim-rewards', validator: v.validator }),
  }),
  supply: declare('supply', {
    label: 'Supply',
    command: 'supply',
    summary: 'supply a token to a Vesu pool to earn interest',
    about:
      "Supplies a token to a Vesu lending pool to earn interest: approve the pool's vToken for exactly the amount, then deposit. On sepolia the WBTC Prime Sepolia pool; a network with no known pool is refused.",
    tool: 'plan_supply',
    review: 'Review the supply',
    done: 'Supplied',
    menu: null,
    via: 'Lending',
    acknowledges: ['unknown-pool'],
    params: {
      amount: param({
        type: 'amount',
        required: true,
        label: 'Amount',
        help: 'the amount to supply',
        in: 'token',
        headless: { positional: 0, word: '<amount>' },
      }),
      token: param({
        type: 'token',
        required: true,
        label: 'Token',
        help: 'the token supplied: a symbol or its 0x address',
        headless: { positional: 1, word: '<TOKEN>' },
      }),
      pool: POOL_PARAM,
    },
    request: (v) => ({
      kind: 'supply',
      supply: { amount: v.amount, token: v.token, pool: v.pool },
    }),
  }),
  withdraw: declare('withdraw', {
    label: 'Withdraw supply',
    command: 'withdraw',
    summary: 'withdraw a supplied token (or all of it) from a Vesu pool',
    about:
      'Withdraws a supplied token from a Vesu pool (an amount, or "all": every vToken share). A pool that lends out too much to pay it back now is refused before signing.',
    tool: 'plan_withdraw',
    review: 'Review the withdrawal',
    done: 'Withdrawn',
    menu: null,
    via: 'Lending',
    acknowledges: ['unknown-pool'],
    params: {
      amount: param({
        type: 'amount-or-all',
        required: true,
        label: 'Amount',
        help: 'the amount to withdraw, or "all" (every vToken share)',
        in: 'token',
        headless: { positional: 0, word: '<amount>|all' },
      }),
      token: param({
        type: 'token',
        required: true,
        label: 'Token',
        help: 'the token withdrawn: a symbol or its 0x address',
        headless: { positional: 1, word: '<TOKEN>' },
      }),
      pool: POOL_PARAM,
    },
    request: (v) => ({
      kind: 'withdraw',
      withdraw: { amount: v.amount, token: v.token, pool: v.pool },
    }),
  }),
  borrow: declare('borrow', {
    label: 'Borrow',
    command: 'borrow',
    summary: 'borrow against collateral in a Vesu pool',
    about:
      "Borrows against collateral (deposited with it when a collateral amount is given) in one modify_position. The plan's headline shows the health factor before → after; at or below 1 it is refused.",
    tool: 'plan_borrow',
    review: 'Review the borrow',
    done: 'Borrowed',
    menu: null,
    via: 'Lending',
    acknowledges: ['low-health', 'unknown-pool'],
    params: {
      amount: param({
        type: 'amount',
        required: true,
        label: 'Amount',
        help: 'the amount to borrow, in the debt token',
        in: 'debt',
        headless: { positional: 0, word: '<amount>' },
      }),
      debt: param({
        type: 'token',
        required: true,
        label: 'Debt',
        help: "the token borrowed: the position's debt token",
        hint: 'the debt token',
        headless: { positional: 1, word: '<TOKEN>' },
      }),
      collateral: param({
        type: 'token',
        required: true,
        label: 'Collateral',
        hint: 'the collateral token',
        help: "the position's collateral token (a symbol or its 0x address)",
        headless: { flag: 'collateral', value: '[AMOUNT] TOKEN', amountInto: 'collateralAmount' },
      }),
      collateralAmount: param({
        type: 'amount',
        required: false,
        label: 'Deposit',
        help: 'collateral to deposit with the borrow (none: borrow against what the position holds)',
        in: 'collateral',
        hint: 'collateral to deposit (empty: none)',
        headless: { within: 'collateral' },
      }),
      pool: POOL_PARAM,
    },
    request: (v) => ({
      kind: 'borrow',
      borrow: {
        amount: v.amount,
        token: v.debt,
        collateral: v.collateral,
        collateralAmount: v.collateralAmount,
        pool: v.pool,
      },
    }),
  }),
  repay: declare('repay', {
    label: 'Repay',
    command: 'repay',
    summary: 'repay a Vesu debt (all: the whole debt, no dust)',
    about:
      'Repays a Vesu debt (an amount, or "all": the whole nominal debt, no dust). The collateral stays in the position.',
    tool: 'plan_repay',
    review: 'Review the repayment',
    done: 'Repaid',
    menu: null,
    via: 'Lending',
    acknowledges: ['unknown-pool'],
    params: {
      amount: param({
        type: 'amount-or-all',
        required: true,
        label: 'Amount',
        help: 'the amount to repay, or "all" (the whole debt, no dust)',
        in: 'debt',
        headless: { positional: 0, word: '<amount>|all' },
      }),
      debt: param({
        type: 'token',
        required: true,
        label: 'Debt',
        help: "the token repaid: the position's debt token",
        hint: 'the debt token',
        headless: { positional: 1, word: '<TOKEN>' },
      }),
      collateral: param({
        type: 'token',
        required: true,
        label: 'Collateral',
        hint: 'the collateral token',
        help: "the position's collateral token (a symbol or its 0x address)",
        headless: { flag: 'collateral', value: 'TOKEN' },
      }),
      pool: POOL_PARAM,
    },
    request: (v) => ({
      kind: 'repay',
      repay: { amount: v.amount, token: v.debt, collateral: v.collateral, pool: v.pool },
    }),
  }),
  'add-collateral': declare('add-collateral', {
    label: 'Add collateral',
    command: 'add-collateral',
    summary: 'add collateral to a Vesu position, borrowing nothing',
    about:
      "Adds collateral to a Vesu position without borrowing: approve the pool for exactly the amount, then one modify_position (debt unchanged). The plan's headline shows the health factor before → after. The position needs no debt yet.",
    tool: 'plan_add_collateral',
    review: 'Review the added collateral',
    done: 'Collateral added',
    menu: null,
    via: 'Lending',
    acknowledges: ['unknown-pool'],
    params: {
      amount: param({
        type: 'amount',
        required: true,
        label: 'Amount',
        help: 'the amount of collateral to add, in the collateral token',
        in: 'collateral',
        hint: 'collateral to add',
        headless: { positional: 0, word: '<amount>' },
      }),
      collateral: param({
        type: 'token',
        required: true,
        label: 'Collateral',
        hint: 'the collateral token',
        help: "the collateral added: the position's collateral token",
        headless: { positional: 1, word: '<TOKEN>' },
      }),
      debt: DEBT_PARAM,
      pool: POOL_PARAM,
    },
    request: (v) => ({
      kind: 'add-collateral',
      collateral: { amount: v.amount, token: v.collateral, debt: v.debt, pool: v.pool },
    }),
  }),
  'withdraw-collateral': declare('withdraw-collateral', {
    label: 'Withdraw collateral',
    command: 'withdraw-collateral',
    summary: 'withdraw collateral from a Vesu position (all: every share)',
    about:
      'Withdraws collateral from a Vesu position without closing it (an amount, or "all": every collateral share, no dust), in one modify_position (debt unchanged). With a debt the health factor after is checked: at or below 1 refused. More than the position holds: INVALID_AMOUNT.',
    tool: 'plan_withdraw_collateral',
    review: 'Review the collateral withdrawal',
    done: 'Collateral withdrawn',
    menu: null,
    via: 'Lending',
    acknowledges: ['low-health', 'unknown-pool'],
    params: {
      amount: param({
        type: 'amount-or-all',
        required: true,
        label: 'Amount',
        help: 'the amount of collateral to withdraw, in the collateral token, or "all" (every collateral share, no dust)',
        in: 'collateral',
        hint: 'collateral to withdraw, or all',
        headless: { positional: 0, word: '<amount>|all' },
      }),
      collateral: param({
        type: 'token',
        required: true,
        label: 'Collateral',
        hint: 'the collateral token',
        help: "the collateral withdrawn: the position's collateral token",
        headless: { positional: 1, word: '<TOKEN>' },
      }),
      debt: DEBT_PARAM,
      pool: POOL_PARAM,
    },
    request: (v) => ({
      kind: 'withdraw-collateral',
      collateral: { amount: v.amount, token: v.collateral, debt: v.debt, pool: v.pool },
    }),
  }),
  'close-position': declare('close-position', {
    label: 'Close position',
    command: 'close-position',
    summary: 'repay a Vesu debt and withdraw all its collateral in one transaction',
    about:
      'Repays the whole debt and withdraws all the collateral of a Vesu position in one transaction.',
    tool: 'plan_close_position',
    review: 'Review the close',
    done: 'Position closed',
    menu: null,
    via: 'Lending',
    acknowledges: ['unknown-pool'],
    params: {
      collateral: param({
        type: 'token',
        required: true,
        label: 'Collateral',
        hint: 'the collateral token',
        help: "the position's collateral token (a symbol or its 0x address)",
        headless: { flag: 'collateral', value: 'TOKEN' },
      }),
      debt: DEBT_PARAM,
      pool: POOL_PARAM,
    },
    request: (v) => ({
      kind: 'close-position',
      close: { collateral: v.collateral, debt: v.debt, pool: v.pool },
    }),
  }),
};

/** A kind of action: the request a face sends (pipeline.ts ActionRequest is a union by it). */
export type ActionKind = keyof typeof TABLE;

/** The request kinds and the table's kinds are the same set (a kind is declared once, here). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameKinds: Same<ActionKind, ActionRequest['kind']> = true;
void sameKinds;

/** Every action kind with its words and parameters, once. */
export const ACTION_KINDS: Readonly<Record<ActionKind, KindDeclaration>> = TABLE;

/** Each kind's row as declared: its literal words (`via`) and its parameters' own types. */
export type DeclarationOf<K extends ActionKind> = (typeof TABLE)[K];

/** The values a face gives kind `K` by declared name (kind-params.ts GivenValues). */
export type ParamsOf<K extends ActionKind> = GivenValues<DeclarationOf<K>['params']>;

/** The kinds the app reaches through the screen named `via` (the table's `via` column). */
export type KindsVia<V extends string> = {
  [K in ActionKind]: DeclarationOf<K> extends { via: V } ? K : never;
}[ActionKind];

/** The kinds, in the table's order. */
export const ACTION_KIND_NAMES = Object.keys(TABLE) as ActionKind[];

/**
 * The kinds the app reaches through the screen named `via`, in the table's order: the screen
 * offers exactly these (a kind added to the table with its `via` appears there with no edit).
 */
export function kindsVia<V extends string>(via: V): KindsVia<V>[] {
  return ACTION_KIND_NAMES.filter((k) => ACTION_KINDS[k].via === via) as KindsVia<V>[];
}

/** A face's words for each kind, from the table. */
export function byKind<T>(
  pick: (info: ActionKindInfo, kind: ActionKind) => T,
): Record<ActionKind, T> {
  return Object.fromEntries(ACTION_KIND_NAMES.map((k) => [k, pick(ACTION_KINDS[k], k)])) as Record<
    ActionKind,
    T
  >;
}
