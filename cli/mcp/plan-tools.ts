/**
 * The tool server's plan tools, one per action kind (docs/architecture.md "Tool server"), each
 * built from the kind's declaration (cli/core/actions/kinds.ts): its name is the table's `tool`,
 * its title and description the kind's words, its input schema one argument per declared
 * parameter (named as declared, typed by `ARGUMENT`, which handles every parameter type: a new
 * type without its schema fails typecheck) plus the signing options the kind can take, and an
 * input becomes the core's request through the declaration's own `request`. A kind's declared
 * answer instead of a plan (a rebalance already balanced) is worded by plans.ts `ANSWERS`.
 */
import * as z from 'zod';
import {
  ACTION_KIND_NAMES,
  ACTION_KINDS,
  type ActionKind,
  type KindDeclaration,
} from '../core/actions/kinds.js';
import type { Param, ParamType } from '../core/actions/kind-params.js';
import type { AcknowledgmentId } from '../core/actions/acknowledgments.js';
import type { ActionRequest } from '../core/actions/index.js';
import {
  AcceptLowHealth,
  Address,
  AllowHighImpact,
  Amount,
  GasToken,
  MaxFee,
  Pair,
  RestartExit,
  Slippage,
  TokenName,
  Transfer,
  Validator,
  text,
} from './schemas.js';

type Schema = z.ZodType;

/** A list parameter's bounds (its declaration's `items`), as a default-empty list when optional. */
const list = (item: Schema, p: Param): Schema => {
  const items = z
    .array(item)
    .min(p.items?.min ?? 0)
    .max(p.items?.max ?? 5)
    .describe(p.help);
  return p.required ? items : items.default([]);
};

/** Each parameter type's argument schema: bounded, described with the parameter's own words. */
const ARGUMENT: { readonly [T in ParamType]: (p: Param) => Schema } = {
  amount: (p) => Amount.describe(p.help),
  'amount-or-all': (p) => Amount.describe(p.help),
  token: (p) => TokenName.describe(p.help),
  address: (p) => Address.describe(p.help),
  validator: (p) => Validator.describe(p.help),
  pool: (p) => z.string().min(1).max(80).describe(p.help),
  pairs: (p) => list(Pair, p),
  transfers: (p) => list(Transfer, p),
  supplies: (p) => list(z.strictObject({ amount: Amount, token: TokenName }), p),
  stakes: (p) =>
    list(z.strictObject({ amount: Amount, token: TokenName, validator: Validator }), p),
  allocation: (p) => text(1000).describe(p.help),
  percent: (p) => text(8).describe(p.help),
  usd: (p) => text(16).describe(p.help),
  switch: (p) => z.boolean().describe(p.help),
};

const argument = (p: Param): Schema => {
  const schema = ARGUMENT[p.type](p);
  return p.required || p.items !== undefined ? schema : schema.optional();
};

/**
 * What each acknowledgment a kind can ask adds to its tool: an argument an agent may send (and
 * that is ignored: the acknowledgment is the person's), and the description's sentence.
 */
const ACKNOWLEDGMENT: {
  readonly [A in AcknowledgmentId]: { argument?: [string, Schema]; words: string };
} = {
  'high-impact': {
    argument: ['allowHighImpact', AllowHighImpact],
    words: 'A price impact above 15 % is the person’s to accept',
  },
  'high-slippage': {
    argument: ['slippagePercent', Slippage],
    words: 'a slippage above 15 % is the person’s to accept',
  },
  'exit-restart': {
    argument: ['restartExit', RestartExit],
    words: 'An exit that restarts a running one’s timer is the person’s to accept',
  },
  'low-health': {
    argument: ['acceptLowHealth', AcceptLowHealth],
    words: 'A health factor left below 1.2 is the person’s to accept',
  },
  'unknown-pool': {
    words: 'A pool named by address that is not a known one is the person’s to accept',
  },
};

/** The tool's input schema: the kind's parameters, then the options its plans can take. */
export function inputSchemaOf(info: KindDeclaration): z.ZodObject {
  const shape: Record<string, Schema> = {};
  for (const [name, p] of Object.entries(info.params)) shape[name] = argument(p);
  for (const id of info.acknowledges ?? []) {
    const extra = ACKNOWLEDGMENT[id].argument;
    if (extra !== undefined) shape[extra[0]] = extra[1];
  }
  shape.gasToken = GasToken;
  shape.maxFee = MaxFee;
  return z.strictObject(shape);
}

/** The tool's description: what the kind does, what its plans may need accepted, what it returns. */
export function descriptionOf(info: KindDeclaration): string {
  const asks = (info.acknowledges ?? []).map((id) => ACKNOWLEDGMENT[id].words);
  return [
    `Plans: ${info.about}`,
    asks.length > 0
      ? `${asks.join('; ')}: execute_plan asks them through the host (an agent cannot accept it for them; a host that cannot ask gets ACKNOWLEDGMENT_REQUIRED).`
      : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** The tool's title: the kind's review title as a plan ("Review the swap" → "Plan the swap"). */
export const titleOf = (info: KindDeclaration): string => info.review.replace(/^Review\b/, 'Plan');

/** A parsed input's parameter values, as the declaration's `request` takes them. */
export function requestOf(info: KindDeclaration, input: Record<string, unknown>): ActionRequest {
  const values = Object.fromEntries(Object.keys(info.params).map((name) => [name, input[name]]));
  return info.request(values as never);
}

export interface PlanTool {
  name: string;
  title: string;
  description: string;
  schema: z.ZodObject;
  /** the input (as the schema parsed it) → the core's request */
  request: (input: Record<string, unknown>) => ActionRequest;
}

const toolOf = (kind: ActionKind): PlanTool => {
  const info = ACTION_KINDS[kind];
  return {
    name: info.tool,
    title: titleOf(info),
    description: descriptionOf(info),
    schema: inputSchemaOf(info),
    request: (input) => requestOf(info, input),
  };
};

/** Every kind's tool: its name, words, input schema and request (plans.ts registers them). */
export const PLAN_TOOLS: { readonly [K in ActionKind]: PlanTool } = Object.fromEntries(
  ACTION_KIND_NAMES.map((kind) => [kind, toolOf(kind)]),
) as { readonly [K in ActionKind]: PlanTool };
