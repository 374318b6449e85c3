/**
 * A screen's form for the kinds the table routes to it, built from their declarations
 * (docs/architecture.md "A kind is one declaration"): the fields are the kind's declared
 * parameters of the types the screen renders, labelled and hinted with the declared words, each
 * amount right after the token it is in (`Param.in`), and the request's values go back under
 * the declared names to the kind's one `request` (the adapter). No kind is named here or in the
 * screens: a kind added to the table with its `via` gets its form with no edit, and a kind whose
 * required parameters a screen cannot render fails typecheck there (`RendersAll`). Pure.
 */
import {
  ACTION_KINDS,
  type ActionKind,
  type DeclarationOf,
  type KindsVia,
} from '../../core/actions/kinds.js';
import type { Param, ParamType } from '../../core/actions/kind-params.js';
import { shortAddress } from '../format.js';
import type { PlanRequest } from '../services.js';

/** A form over kinds: the kind chosen, what is typed in each field (by its slot), the field focused. */
export interface KindForm<K extends ActionKind = ActionKind> {
  kind: K;
  /** what is typed, by field slot: kept while the person changes action, as the screen decides */
  values: Readonly<Record<string, string>>;
  /** the focused field's slot */
  focus: string;
}

/** The required parameters of the kinds reached via `V` whose type is not in `R`: "kind.param". */
type Unrendered<V extends string, R extends ParamType> = {
  [K in KindsVia<V>]: {
    [N in keyof DeclarationOf<K>['params'] & string]: DeclarationOf<K>['params'][N] extends {
      required: true;
      type: infer T;
    }
      ? [T] extends [R]
        ? never
        : `${K}.${N}`
      : never;
  }[keyof DeclarationOf<K>['params'] & string];
}[KindsVia<V>];

/**
 * `true` when the screen named `V`, rendering the parameter types `R`, can take every kind the
 * table routes to it; else the parameters it cannot render, so `const ok: RendersAll<…> = true`
 * fails typecheck naming them. An optional parameter of another type is left to its default (a
 * Lending form names no pool: the network's main one).
 */
export type RendersAll<V extends string, R extends ParamType> = [Unrendered<V, R>] extends [never]
  ? true
  : `the ${V} form cannot render ${Unrendered<V, R>}`;

/** How a screen's form takes the declarations. */
export interface FormSpec {
  /** the parameter types it renders, each as a text field */
  types: readonly ParamType[];
  /**
   * fields two parameters share (a parameter's name → the slot it is typed in; absent: its own
   * name), so what was typed stays when the person changes action
   */
  slots?: Readonly<Record<string, string>>;
}

/** One field of a kind's form: the declared parameter, and the slot its value is typed in. */
export interface Field {
  name: string;
  slot: string;
  param: Param;
}

const isAmount = (p: Param): boolean => p.type === 'amount' || p.type === 'amount-or-all';

/**
 * The kind's fields, in Tab order: its declared parameters of the rendered types, in the declared
 * order, each amount right after the token it is in (the token comes first, so typing the form in
 * its order loses nothing: `withField`), an amount in no rendered token last.
 */
export function fieldsOf(kind: ActionKind, spec: FormSpec): Field[] {
  const params = Object.entries(ACTION_KINDS[kind].params).filter(([, p]) =>
    spec.types.includes(p.type),
  );
  const names = new Set(params.map(([name]) => name));
  const field = ([name, param]: [string, Param]): Field => ({
    name,
    slot: spec.slots?.[name] ?? name,
    param,
  });
  return [
    ...params
      .filter(([, p]) => !isAmount(p))
      .flatMap((entry) => [entry, ...params.filter(([, p]) => isAmount(p) && p.in === entry[0])]),
    ...params.filter(([, p]) => isAmount(p) && (p.in === undefined || !names.has(p.in))),
  ].map(field);
}

/** A new form: the screen's first kind, nothing typed, the cursor on its first field. */
export function newForm<K extends ActionKind>(kinds: readonly K[], spec: FormSpec): KindForm<K> {
  const [kind] = kinds;
  if (kind === undefined) throw new Error('a form needs a kind');
  return { kind, values: {}, focus: fieldsOf(kind, spec)[0]?.slot ?? '' };
}

/** Tab: the next field of the kind, round to the first. */
export function nextFocus(form: KindForm, spec: FormSpec): string {
  const slots = fieldsOf(form.kind, spec).map((f) => f.slot);
  return slots[(slots.indexOf(form.focus) + 1) % slots.length] ?? form.focus;
}

/** What is typed in a field. */
export const valueOf = (form: KindForm, slot: string): string => form.values[slot] ?? '';

/** The slot of the token an amount field is in (undefined: not an amount, or in no rendered token). */
function amountTokenSlot(kind: ActionKind, spec: FormSpec, field: Field): string | undefined {
  if (!isAmount(field.param) || field.param.in === undefined) return undefined;
  return fieldsOf(kind, spec).find((f) => f.name === field.param.in)?.slot;
}

/** A typed token as a label names it: as typed, an address shortened. */
const tokenWords = (typed: string): string => shortAddress(typed.trim());

/**
 * A field's label: the declared one; an amount's names the token it is in once that is typed
 * ("Amount (USDC)"), so "Amount (ETH)" above "Debt USDC" cannot read as 0.5 USDC.
 */
export function labelOf(form: KindForm, spec: FormSpec, field: Field): string {
  const token = amountTokenSlot(form.kind, spec, field);
  const typed = token === undefined ? '' : valueOf(form, token).trim();
  return typed === '' ? field.param.label : `${field.param.label} (${tokenWords(typed)})`;
}

/** The app's words in an empty field of a type, where the declaration has none (`Param.hint`). */
const HINTS: Partial<Readonly<Record<ParamType, string>>> = {
  amount: 'an amount',
  'amount-or-all': 'an amount or all',
  token: 'USDC, ETH, STRK…',
  validator: 'a name or a staker address',
};

export const hintOf = (field: Field): string => field.param.hint ?? HINTS[field.param.type] ?? '';

/** The first required field left empty (undefined: the form can be planned). */
export const missingField = (form: KindForm, spec: FormSpec): Field | undefined =>
  fieldsOf(form.kind, spec).find((f) => f.param.required && valueOf(form, f.slot).trim() === '');

/**
 * The form's values under the kind's declared parameter names, as the plan request carries them
 * (services.ts PlanRequest `params`): each field's value trimmed; an optional one left empty is
 * not given (its default).
 */
export function formParams(form: KindForm, spec: FormSpec): Record<string, string> {
  return Object.fromEntries(
    fieldsOf(form.kind, spec).flatMap((f) => {
      const value = valueOf(form, f.slot).trim();
      return value === '' && !f.param.required ? [] : [[f.name, value]];
    }),
  );
}

/**
 * The form's plan request: its kind and the values by declared name (formParams). Each kind's
 * required parameters are fields of the rendered types (`RendersAll` holds it where the screen
 * declares them), so the values are the kind's own.
 */
export const formRequest = (form: KindForm, spec: FormSpec, slippageBps: number): PlanRequest =>
  ({ kind: form.kind, slippageBps, params: formParams(form, spec) }) as PlanRequest;

/**
 * The form with one field edited: any change of a token clears every amount typed in it (every
 * keystroke counts: "USDC" edited back to "USDC" passed through "USD", and telling a respelling
 * from a new token would be a guess; docs/decisions.md "An app form's amount and its token").
 */
export function withField<F extends KindForm>(
  form: F,
  spec: FormSpec,
  slot: string,
  value: string,
): F {
  if (valueOf(form, slot) === value) return form;
  const cleared = fieldsOf(form.kind, spec)
    .filter((f) => amountTokenSlot(form.kind, spec, f) === slot)
    .map((f) => [f.slot, '']);
  return { ...form, values: { ...form.values, [slot]: value, ...Object.fromEntries(cleared) } };
}
