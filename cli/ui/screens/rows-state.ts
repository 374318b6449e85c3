/**
 * The multi-swap and batch forms, pure: rows of swaps (amount, from, to), of sends (amount,
 * token, recipient) and, in a batch, of supplies (amount, token) and stakes (amount, token,
 * validator), the focus, rows added and removed within the core's limits, each row
 * checked as it is typed, and the request the form asks the core to plan. One core, two faces
 * (docs/architecture.md "Client behaviour"): the limits are the core's own constants and the
 * request is the one `multi-swap --pairs` and `batch --swap/--send/--supply/--stake` plan.
 */
import { MAX_BATCH_SENDS } from '../../core/actions/plan.js';
import { MAX_BATCH_PAIRS, MIN_BATCH_PAIRS } from '../../core/actions/limits.js';
import type { ParamsOf } from '../../core/actions/kinds.js';
import type { PairSpec, TransferSpec } from '../../core/actions/pipeline.js';
import type { SendRequest, PlanRequest } from '../services.js';
import {
  amountProblem,
  DEFAULT_PAIR,
  DEFAULT_SEND_TOKEN,
  pairProblem,
  type RecipientCheck,
  recipientProblem,
} from './form-fields.js';
import { initialSlippage, type SlippageChoice, slippageOf } from './trade-state.js';

export type RowsKind = 'multi-swap' | 'batch';

type SwapRow = { kind: 'swap' } & PairSpec;
/** `to` is the recipient as typed */
type SendRow = { kind: 'send' } & SendRequest;
/** a supply to the network's main Vesu pool */
type SupplyRow = { kind: 'supply'; amount: string; token: string };
/** `to` is the validator as typed (a preset name or a staker address) */
type StakeRow = { kind: 'stake'; amount: string; token: string; to: string };
export type Row = SwapRow | SendRow | SupplyRow | StakeRow;

export type RowField = 'amount' | 'from' | 'to' | 'token';

/** Each row's fields, in the order of its line ("100 USDC → ETH", "5 STRK → 0x…") and of Tab. */
const ROW_FIELDS = {
  swap: ['amount', 'from', 'to'],
  send: ['amount', 'token', 'to'],
  supply: ['amount', 'token'],
  stake: ['amount', 'token', 'to'],
} as const satisfies Record<Row['kind'], readonly RowField[]>;

type RowsFocus = { row: number; field: RowField } | 'slippage';

export interface RowsForm extends SlippageChoice {
  kind: RowsKind;
  /** swaps first, then sends: the order of the plan's calls and of its review */
  rows: Row[];
  focus: RowsFocus;
  /** why the last add or remove was refused; cleared by the next action */
  notice: string | undefined;
}

/**
 * What each form may hold: the core's limits (a multi-swap 2–3 swaps; a batch at least one row,
 * ≤ 3 swaps, ≤ MAX_BATCH_SENDS sends, as many supplies and as many stakes).
 */
export const LIMITS: Record<
  RowsKind,
  { minSwaps: number; maxSwaps: number; maxSends: number; maxEach: number }
> = {
  'multi-swap': { minSwaps: MIN_BATCH_PAIRS, maxSwaps: MAX_BATCH_PAIRS, maxSends: 0, maxEach: 0 },
  batch: {
    minSwaps: 0,
    maxSwaps: MAX_BATCH_PAIRS,
    maxSends: MAX_BATCH_SENDS,
    maxEach: MAX_BATCH_SENDS,
  },
};

const NAME: Record<RowsKind, string> = { 'multi-swap': 'a multi-swap', batch: 'a batch' };

const newSwap = (): SwapRow => ({ kind: 'swap', amount: '', ...DEFAULT_PAIR });
const newSend = (): SendRow => ({ kind: 'send', amount: '', token: DEFAULT_SEND_TOKEN, to: '' });
const newSupply = (): SupplyRow => ({ kind: 'supply', amount: '', token: 'USDC' });
/** the core stakes STRK (the validators' STRK delegation pools) */
const newStake = (): StakeRow => ({ kind: 'stake', amount: '', token: 'STRK', to: '' });

/** A multi-swap starts with its fewest swaps; a batch with one swap. */
export function initialRows(kind: RowsKind, defaultSlippageBps: number): RowsForm {
  const count = Math.max(1, LIMITS[kind].minSwaps);
  return {
    kind,
    rows: Array.from({ length: count }, newSwap),
    focus: { row: 0, field: 'amount' },
    notice: undefined,
    ...initialSlippage(defaultSlippageBps),
  };
}

export const swapCount = (form: RowsForm): number =>
  form.rows.filter((r) => r.kind === 'swap').length;

/** Every focus stop in Tab order: each row's fields, then the slippage (only when there are swaps). */
export function focusStops(form: RowsForm): RowsFocus[] {
  const fields = form.rows.flatMap((row, i) =>
    ROW_FIELDS[row.kind].map((field): RowsFocus => ({ row: i, field })),
  );
  return swapCount(form) > 0 ? [...fields, 'slippage'] : fields;
}

const sameFocus = (a: RowsFocus, b: RowsFocus): boolean =>
  a === 'slippage' || b === 'slippage' ? a === b : a.row === b.row && a.field === b.field;

export type RowsAction =
  | { type: 'edit'; row: number; field: RowField; value: string }
  | { type: 'slippage'; patch: Partial<SlippageChoice> }
  | { type: 'nextField' }
  | { type: 'focus'; focus: RowsFocus }
  | { type: 'addSwap' }
  | { type: 'addSend' }
  | { type: 'addSupply' }
  | { type: 'addStake' }
  | { type: 'removeRow' };

function withField(row: Row, field: RowField, value: string): Row {
  if (field === 'amount') return { ...row, amount: value };
  if (row.kind === 'supply') return field === 'token' ? { ...row, token: value } : row;
  if (field === 'to') return { ...row, to: value };
  if (row.kind === 'swap') return field === 'from' ? { ...row, from: value } : row;
  return field === 'token' ? { ...row, token: value } : row;
}

export function rowsReducer(form: RowsForm, action: RowsAction): RowsForm {
  const next = { ...form, notice: undefined };
  const limits = LIMITS[form.kind];
  const swaps = swapCount(form);
  switch (action.type) {
    case 'edit':
      return {
        ...next,
        rows: form.rows.map((row, i) =>
          i === action.row ? withField(row, action.field, action.value) : row,
        ),
      };
    case 'slippage':
      return { ...next, ...action.patch };
    case 'nextField': {
      const stops = focusStops(form);
      const at = stops.findIndex((stop) => sameFocus(stop, form.focus));
      return { ...next, focus: stops[(at + 1) % stops.length] ?? stops[0] ?? form.focus };
    }
    case 'focus':
      return { ...next, focus: action.focus };
    case 'addSwap':
      if (swaps >= limits.maxSwaps)
        return { ...next, notice: `${NAME[form.kind]} holds at most ${limits.maxSwaps} swaps` };
      // after the last swap: swaps come before sends
      return {
        ...next,
        rows: form.rows.toSpliced(swaps, 0, newSwap()),
        focus: { row: swaps, field: 'amount' },
      };
    case 'addSupply':
    case 'addStake': {
      const kind = action.type === 'addSupply' ? 'supply' : 'stake';
      const what = kind === 'supply' ? 'supplies' : 'stakes';
      if (limits.maxEach === 0)
        return {
          ...next,
          notice: `${NAME[form.kind]} holds swaps only (use Batch to add ${what})`,
        };
      if (form.rows.filter((r) => r.kind === kind).length >= limits.maxEach)
        return { ...next, notice: `${NAME[form.kind]} holds at most ${limits.maxEach} ${what}` };
      return {
        ...next,
        rows: [...form.rows, kind === 'supply' ? newSupply() : newStake()],
        focus: { row: form.rows.length, field: 'amount' },
      };
    }
    case 'addSend': {
      const sends = form.rows.filter((r) => r.kind === 'send').length;
      if (limits.maxSends === 0)
        return {
          ...next,
          notice: `${NAME[form.kind]} holds swaps only (use Batch to add transfers)`,
        };
      if (sends >= limits.maxSends)
        return { ...next, notice: `${NAME[form.kind]} holds at most ${limits.maxSends} transfers` };
      return {
        ...next,
        rows: [...form.rows, newSend()],
        focus: { row: form.rows.length, field: 'amount' },
      };
    }
    case 'removeRow': {
      if (form.focus === 'slippage') return next;
      const { row } = form.focus;
      if (form.rows[row]?.kind === 'swap' && swaps <= limits.minSwaps)
        return { ...next, notice: `${NAME[form.kind]} needs at least ${limits.minSwaps} swaps` };
      if (form.rows.length <= 1)
        return { ...next, notice: `${NAME[form.kind]} needs at least one row` };
      const rows = form.rows.toSpliced(row, 1);
      return { ...next, rows, focus: { row: Math.min(row, rows.length - 1), field: 'amount' } };
    }
  }
}

interface RowsCheck {
  /** each row's problem, by row (undefined: none, or nothing typed yet) */
  problems: Array<string | undefined>;
  /** the custom slippage's problem, when there are swaps */
  slippageProblem: string | undefined;
  /** the first field still empty: where Enter takes the cursor */
  empty: RowsFocus | undefined;
  /** what to plan: every row complete and without a problem */
  request: PlanRequest | undefined;
}

interface RowsContext {
  decimalsOf: (symbol: string) => number | undefined;
  checkRecipient: RecipientCheck;
  /** the slippage a batch without swaps carries (the core does not use it then) */
  defaultSlippageBps: number;
}

function rowProblem(row: Row, context: RowsContext): string | undefined {
  if (row.kind === 'swap')
    return (
      pairProblem(row.from, row.to) ??
      amountProblem(row.amount, row.from, context.decimalsOf(row.from))
    );
  // a stake's validator and a supply's pool are the core's to check when it plans (it reads them)
  if (row.kind === 'supply' || row.kind === 'stake')
    return amountProblem(row.amount, row.token, context.decimalsOf(row.token));
  return (
    amountProblem(row.amount, row.token, context.decimalsOf(row.token)) ??
    recipientProblem(row.to, context.checkRecipient)
  );
}

/** Each row checked as typed, and the request once the whole form is complete and fine. */
export function checkRows(form: RowsForm, context: RowsContext): RowsCheck {
  const problems = form.rows.map((row) => rowProblem(row, context));
  const hasSwaps = swapCount(form) > 0;
  const slippage = slippageOf(form);
  const slippageProblem = hasSwaps && 'problem' in slippage ? slippage.problem : undefined;
  const empty = firstEmpty(form.rows);
  const fine =
    empty === undefined && slippageProblem === undefined && problems.every((p) => p === undefined);
  if (!fine) return { problems, slippageProblem, empty, request: undefined };
  const slippageBps = 'bps' in slippage ? slippage.bps : context.defaultSlippageBps;
  const swaps = form.rows.flatMap((row) =>
    row.kind === 'swap' ? [{ amount: row.amount.trim(), from: row.from, to: row.to }] : [],
  );
  const request: PlanRequest =
    form.kind === 'multi-swap'
      ? { kind: 'multi-swap', slippageBps, params: { pairs: swaps } }
      : { kind: 'batch', slippageBps, params: { swaps, ...batchItems(form.rows) } };
  return { problems, slippageProblem, empty, request };
}

/** A batch's transfers, supplies and stakes, each under its declared name when it has any. */
function batchItems(
  rows: readonly Row[],
): { sends: TransferSpec[] } & Omit<ParamsOf<'batch'>, 'swaps' | 'sends'> {
  const sends = rows.flatMap((row) =>
    row.kind === 'send' ? [{ token: row.token, amount: row.amount.trim(), to: row.to.trim() }] : [],
  );
  const supplies = rows.flatMap((row) =>
    row.kind === 'supply' ? [{ amount: row.amount.trim(), token: row.token }] : [],
  );
  const stakes = rows.flatMap((row) =>
    row.kind === 'stake'
      ? [{ amount: row.amount.trim(), token: row.token, validator: row.to.trim() }]
      : [],
  );
  return {
    sends,
    ...(supplies.length > 0 ? { supplies } : {}),
    ...(stakes.length > 0 ? { stakes } : {}),
  };
}

/** The first field still to type: a row's amount, a send's recipient, a stake's validator. */
function firstEmpty(rows: readonly Row[]): RowsFocus | undefined {
  for (const [row, r] of rows.entries()) {
    if (r.amount.trim() === '') return { row, field: 'amount' };
    if ((r.kind === 'send' || r.kind === 'stake') && r.to.trim() === '')
      return { row, field: 'to' };
  }
  return undefined;
}
