/**
 * The action kinds, listed once (docs/architecture.md "Adding a leg type"): the requests a face
 * sends to the pipeline, each composing legs (legs/). Every face derives its list from this
 * table — the headless commands' help, the tool server's plan tools, the app's menu and review
 * titles, the history's labels, the docs' command table — through `Record<ActionKind, …>`
 * maps, so a kind missing from a face fails typecheck, and test/kinds-faces.test.ts fails when
 * a face leaves one out. Pure data: no imports, so the lightest face may read it.
 */

export interface ActionKindInfo {
  /** one word as a title: the plan's and the history's label */
  label: string;
  /** the headless command that plans it (`unstake --complete` is a flag of `unstake`) */
  command: string;
  /** the headless help's line for the command */
  summary: string;
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
    'high-impact' | 'high-slippage' | 'exit-restart' | 'low-health' | 'unknown-pool'
  )[];
}

const TABLE = {
  send: {
    label: 'Send',
    command: 'send',
    summary: 'send a token to an address',
    tool: 'plan_send',
    review: 'Review the transfer',
    done: 'Sent',
    menu: 'Send',
  },
  trade: {
    label: 'Trade',
    command: 'trade',
    summary: 'swap one token for another',
    tool: 'plan_trade',
    review: 'Review the swap',
    done: 'Swap confirmed',
    menu: 'Trade',
    acknowledges: ['high-impact', 'high-slippage'],
  },
  'multi-swap': {
    label: 'Multi-swap',
    command: 'multi-swap',
    summary: '2–3 swaps in one transaction',
    tool: 'plan_multi_swap',
    review: 'Review the multi-swap',
    done: 'Multi-swap confirmed',
    menu: 'Multi-swap',
    acknowledges: ['high-impact', 'high-slippage'],
  },
  batch: {
    label: 'Batch',
    command: 'batch',
    summary: 'swaps and transfers in one transaction',
    tool: 'plan_batch',
    review: 'Review the batch',
    done: 'Batch confirmed',
    menu: 'Batch',
    acknowledges: ['high-impact', 'high-slippage'],
  },
  rebalance: {
    label: 'Rebalance',
    command: 'portfolio-rebalance',
    summary: 'move the wallet to a target allocation',
    tool: 'plan_rebalance',
    review: 'Review the rebalance',
    done: 'Rebalance confirmed',
    menu: null,
    via: 'Portfolio',
    acknowledges: ['high-impact', 'high-slippage'],
  },
  stake: {
    label: 'Stake',
    command: 'stake',
    summary: 'stake STRK with a validator (delegation pool)',
    tool: 'plan_stake',
    review: 'Review the stake',
    done: 'Staked',
    menu: null,
    via: 'Staking',
  },
  unstake: {
    label: 'Unstake',
    command: 'unstake',
    summary: 'start the exit of staked STRK (0 cancels; --complete withdraws after the window)',
    tool: 'plan_unstake',
    review: 'Review the exit',
    done: 'Exit started',
    menu: null,
    via: 'Staking',
    acknowledges: ['exit-restart'],
  },
  'unstake-complete': {
    label: 'Withdraw',
    command: 'unstake --complete',
    summary: 'withdraw staked STRK once its exit window has passed',
    tool: 'plan_unstake_complete',
    review: 'Review the withdrawal',
    done: 'Withdrawn',
    menu: null,
    via: 'Staking',
  },
  'claim-rewards': {
    label: 'Claim rewards',
    command: 'claim-rewards',
    summary: "claim a validator pool's staking rewards",
    tool: 'plan_claim_rewards',
    review: 'Review the claim',
    done: 'Rewards claimed',
    menu: null,
    via: 'Staking',
  },
  supply: {
    label: 'Supply',
    command: 'supply',
    summary: 'supply a token to a Vesu pool to earn interest',
    tool: 'plan_supply',
    review: 'Review the supply',
    done: 'Supplied',
    menu: null,
    via: 'Lending',
    acknowledges: ['unknown-pool'],
  },
  withdraw: {
    label: 'Withdraw supply',
    command: 'withdraw',
    summary: 'withdraw a supplied token (or all of it) from a Vesu pool',
    tool: 'plan_withdraw',
    review: 'Review the withdrawal',
    done: 'Withdrawn',
    menu: null,
    via: 'Lending',
    acknowledges: ['unknown-pool'],
  },
  borrow: {
    label: 'Borrow',
    command: 'borrow',
    summary: 'borrow against collateral in a Vesu pool',
    tool: 'plan_borrow',
    review: 'Review the borrow',
    done: 'Borrowed',
    menu: null,
    via: 'Lending',
    acknowledges: ['low-health', 'unknown-pool'],
  },
  repay: {
    label: 'Repay',
    command: 'repay',
    summary: 'repay a Vesu debt (all: the whole debt, no dust)',
    tool: 'plan_repay',
    review: 'Review the repayment',
    done: 'Repaid',
    menu: null,
    via: 'Lending',
    acknowledges: ['unknown-pool'],
  },
  'add-collateral': {
    label: 'Add collateral',
    command: 'add-collateral',
    summary: 'add collateral to a Vesu position, borrowing nothing',
    tool: 'plan_add_collateral',
    review: 'Review the added collateral',
    done: 'Collateral added',
    menu: null,
    via: 'Lending',
    acknowledges: ['unknown-pool'],
  },
  'withdraw-collateral': {
    label: 'Withdraw collateral',
    command: 'withdraw-collateral',
    summary: 'withdraw collateral from a Vesu position (all: every share)',
    tool: 'plan_withdraw_collateral',
    review: 'Review the collateral withdrawal',
    done: 'Collateral withdrawn',
    menu: null,
    via: 'Lending',
    acknowledges: ['low-health', 'unknown-pool'],
  },
  'close-position': {
    label: 'Close position',
    command: 'close-position',
    summary: 'repay a Vesu debt and withdraw all its collateral in one transaction',
    tool: 'plan_close_position',
    review: 'Review the close',
    done: 'Position closed',
    menu: null,
    via: 'Lending',
    acknowledges: ['unknown-pool'],
  },
} as const satisfies Record<string, ActionKindInfo>;

/** A kind of action: the request a face sends (pipeline.ts ActionRequest is a union by it). */
export type ActionKind = keyof typeof TABLE;

/** Every action kind with its words, once. */
export const ACTION_KINDS: Readonly<Record<ActionKind, ActionKindInfo>> = TABLE;

/** The kinds, in the table's order. */
export const ACTION_KIND_NAMES = Object.keys(TABLE) as ActionKind[];

/** A face's words for each kind, from the table. */
export function byKind<T>(
  pick: (info: ActionKindInfo, kind: ActionKind) => T,
): Record<ActionKind, T> {
  return Object.fromEntries(ACTION_KIND_NAMES.map((k) => [k, pick(ACTION_KINDS[k], k)])) as Record<
    ActionKind,
    T
  >;
}
