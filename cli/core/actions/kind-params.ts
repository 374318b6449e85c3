/**
 * What a kind's declaration is made of (docs/architecture.md "Adding a leg type"): its parameters — each with a type, whether it is required, the words a face
 * shows and how the headless face spells it — and the one mapping from their values to the
 * core's typed request. kinds.ts declares every kind with these; each face handles every
 * parameter type through a `Record<ParamType, …>` (a new type a face does not handle fails
 * typecheck). Pure: type imports only, so the lightest face may read it.
 */
import type { ActionRequest, PairSpec, TransferSpec } from './pipeline.js';

/** Each parameter type and the value a face hands the declaration's `request`. */
export interface ParamValues {
  /** an exact decimal amount in token units ("1.5") */
  amount: string;
  /** an exact amount, or "all" (everything the position holds, read when it runs) */
  'amount-or-all': string;
  /** a registry token: a symbol or its address */
  token: string;
  /** a Starknet address (a recipient) */
  address: string;
  /** a validator: a preset name or a staker address */
  validator: string;
  /** a Vesu pool: a name or an address */
  pool: string;
  /** swaps, "AMOUNT FROM>TO" each */
  pairs: PairSpec[];
  /** plain transfers, "AMOUNT TOKEN>ADDRESS" each */
  transfers: TransferSpec[];
  /** supplies to the main Vesu pool, "AMOUNT TOKEN" each */
  supplies: Array<{ amount: string; token: string }>;
  /** stakes, "AMOUNT TOKEN>VALIDATOR" each */
  stakes: Array<{ amount: string; token: string; validator: string }>;
  /** a target allocation, "PERCENT TOKEN, …" adding up to 100 */
  allocation: string;
  /** percentage points ("2") */
  percent: string;
  /** a value in USD ("1") */
  usd: string;
  /** a yes/no choice */
  switch: boolean;
}

export type ParamType = keyof ParamValues;

/** The list parameter types, with how many items a face may take. */
export type ListType = 'pairs' | 'transfers' | 'supplies' | 'stakes';

/**
 * How the headless face spells a parameter (a face's words, kept beside the declaration so a
 * new kind is one place): an argument by its place, a flag by its name (no dashes: the face
 * writes them), or a flag whose value may lead with this parameter's amount (`collateral` as
 * `[AMOUNT] TOKEN`: the amount is the parameter named in `amountInto`).
 */
type HeadlessSpelling =
  | { positional: number; word: string }
  | { flag: string; value: string; amountInto?: string; example?: string }
  /** given inside another parameter's flag (its `amountInto`) */
  | { within: string }
  /**
   * a list: one flag repeated (`each`), or one flag with items separated by commas; `example`:
   * a value the face shows when a required one is missing
   */
  | { flag: string; value: string; list: 'each' | 'commas'; example?: string };

export interface Param<T extends ParamType = ParamType> {
  type: T;
  required: boolean;
  /** the app's field label and the name a refusal about it is shown under */
  label: string;
  /** one line on what it is (the tool server's argument description, the headless help) */
  help: string;
  /**
   * an amount: the parameter naming the token it is in (a `token` parameter of the same kind;
   * cli/core/actions/kinds.test.ts holds it). A form labels the amount with that token, and
   * clears the amount when the token changes (docs/decisions.md "An app form's amount and its
   * token")
   */
  in?: string;
  /** the app's words in the empty field (absent: the app's words for the parameter's type) */
  hint?: string;
  headless: HeadlessSpelling;
  /**
   * a list: at least, at most this many items (every face holds a list to them before planning;
   * `instead`: the kind that takes fewer, a multi-swap's one swap a trade)
   */
  items?: { min: number; max: number; instead?: ActionRequest['kind'] };
}

export type Params = Readonly<Record<string, Param>>;

/** The values of `P` as `request` receives them: a required parameter always has one. */
type ValuesOf<P extends Params> = {
  [N in keyof P]: P[N]['required'] extends true
    ? ParamValues[P[N]['type']]
    : ParamValues[P[N]['type']] | undefined;
};

/**
 * The values a face gives by name (the app's screens, PlanRequest `params`): every required
 * parameter, each optional one when it has a value (absent: its default). A screen that builds
 * them for a kind whose required parameter it does not give fails typecheck.
 */
export type GivenValues<P extends Params> = {
  [N in keyof P as P[N]['required'] extends true ? N : never]: ParamValues[P[N]['type']];
} & {
  [N in keyof P as P[N]['required'] extends true ? never : N]?: ParamValues[P[N]['type']];
};

/** A kind's request, by its name. */
type RequestOf<K extends ActionRequest['kind']> = Extract<ActionRequest, { kind: K }>;

/** The parameter part of a kind's declaration: what it takes and the request it makes of it. */
export interface KindParams<K extends ActionRequest['kind'], P extends Params = Params> {
  params: P;
  /** the parameters' values → the core's request (resolve.ts's resolver of the same kind takes it) */
  request: (values: ValuesOf<P>) => RequestOf<K>;
}

/** One parameter, its literal type kept (so `ValuesOf` knows what `request` receives). */
export const param = <const T extends ParamType, const R extends boolean>(
  p: Param<T> & { required: R },
): Param<T> & { required: R } => p;
