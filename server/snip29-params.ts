/**
 * The params of the two SNIP-29 methods that carry a transaction (paymaster_buildTransaction and
 * paymaster_executeTransaction), written out from the SNIP-29 schema
 * (sandbox/chain/specs/snip-29/paymaster_api.json) with **no unknown key allowed at any level**
 * of `transaction` and `parameters` (docs/server-security.md "Paymaster relay"). The relay spends
 * our API key, and sponsored gas the operator's money: a request that is not exactly the schema's
 * could mean something to the paymaster that our checks did not see (`feeMode` instead of
 * `fee_mode`, a fee mode the paymaster defaults, a key inside `invoke` it also reads), so it is
 * refused before it is relayed (fail closed).
 *
 * Where this reads the schema more loosely than its letter, it is on spelling only, never on
 * keys or structure (docs/decisions.md "SNIP-29 params: exact keys, usual spellings"):
 * - a felt is `0x` and 1–64 hex digits: the schema's FELT forbids leading zeros, but starknet.js
 *   and our client write padded addresses and salts, and every paymaster reads felts as numbers;
 * - a timestamp is the schema's NUMERIC string or a non-negative integer (starknet.js writes
 *   PaymasterTimeBounds as numbers);
 * - the schema's own quirks (test/helpers/openrpc.ts names them): STARKNET_DOMAIN.revision also
 *   takes the string "1" (what SNIP-12 revision 1 typed data writes), and OUTSIDE_CALL_V1's
 *   `required` lists To/Selector/Calldata while its properties are lowercase: the lowercase ones
 *   are required.
 * `server/snip29-params.test.ts` compares every object here with the schema file: the same keys,
 * the same required ones.
 */
import * as Type from 'typebox';
import { Compile } from 'typebox/compile';

const exact = { additionalProperties: false } as const;

const Felt = Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$' });
const Felts = Type.Array(Felt);
const Timestamp = Type.Union([
  Type.String({ pattern: '^(0|[1-9][0-9]{0,19})$' }),
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
]);

export const Call = Type.Object({ to: Felt, selector: Felt, calldata: Felts }, exact);

export const UserInvoke = Type.Object({ user_address: Felt, calls: Type.Array(Call) }, exact);

export const AccountDeploymentData = Type.Object(
  {
    address: Felt,
    class_hash: Felt,
    salt: Felt,
    calldata: Felts,
    sigdata: Type.Optional(Felts),
    version: Type.Literal(1),
  },
  exact,
);

const TypeMember = Type.Union([
  Type.Object({ name: Type.String(), type: Type.String() }, exact),
  Type.Object(
    {
      name: Type.String(),
      type: Type.Union([Type.Literal('merkletree'), Type.Literal('enum')]),
      contains: Type.String(),
    },
    exact,
  ),
]);

export const StarknetDomain = Type.Object(
  {
    name: Type.Optional(Type.String()),
    version: Type.Optional(Type.String()),
    chainId: Type.Optional(Type.Union([Type.String(), Type.Number()])),
    revision: Type.Optional(
      Type.Union([Type.Literal('2'), Type.Literal('1'), Type.Literal(0), Type.Literal(1)]),
    ),
  },
  { ...exact, minProperties: 1 },
);

export const OutsideCallV1 = Type.Object(
  { to: Felt, selector: Felt, calldata_len: Type.Optional(Felt), calldata: Felts },
  exact,
);
export const OutsideCallV2 = Type.Object({ To: Felt, Selector: Felt, Calldata: Felts }, exact);

export const OutsideExecutionMessageV1 = Type.Object(
  {
    caller: Felt,
    nonce: Felt,
    execute_after: Felt,
    execute_before: Felt,
    calls_len: Felt,
    calls: Type.Array(OutsideCallV1),
  },
  exact,
);
export const OutsideExecutionMessageV2 = Type.Object(
  {
    Caller: Felt,
    Nonce: Felt,
    'Execute After': Felt,
    'Execute Before': Felt,
    Calls: Type.Array(OutsideCallV2),
  },
  exact,
);

const typedData = (message: Type.TSchema) =>
  Type.Object(
    {
      types: Type.Record(Type.String(), Type.Array(TypeMember)),
      primaryType: Type.String(),
      domain: StarknetDomain,
      message,
    },
    exact,
  );

export const ExecutableUserInvoke = Type.Object(
  {
    user_address: Felt,
    typed_data: Type.Union([
      typedData(OutsideExecutionMessageV1),
      typedData(OutsideExecutionMessageV2),
    ]),
    signature: Felts,
  },
  exact,
);

const Tip = Type.Union([
  Type.Literal('slow'),
  Type.Literal('normal'),
  Type.Literal('fast'),
  Type.Object({ custom: Type.Integer({ minimum: 0 }) }, exact),
]);

export const SponsoredFeeMode = Type.Object(
  { mode: Type.Literal('sponsored'), tip: Type.Optional(Tip) },
  exact,
);
export const DefaultFeeMode = Type.Object(
  { mode: Type.Literal('default'), gas_token: Felt, tip: Type.Optional(Tip) },
  exact,
);

export const TimeBounds = Type.Object(
  { execute_after: Timestamp, execute_before: Timestamp },
  exact,
);

/** USER_PARAMETERS v1: `fee_mode` is required (the schema's, and so is our reading of it). */
export const UserParameters = Type.Object(
  {
    version: Type.Literal('0x1'),
    fee_mode: Type.Union([SponsoredFeeMode, DefaultFeeMode]),
    time_bounds: Type.Optional(TimeBounds),
  },
  exact,
);

const TRANSACTION_TYPES = ['invoke', 'deploy', 'deploy_and_invoke'] as const;
type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Each transaction type's exact shape, for build (USER_TRANSACTION) and execute (EXECUTABLE_USER_TRANSACTION). */
function transactions(invoke: Type.TSchema): Record<TransactionType, Type.TSchema> {
  return {
    invoke: Type.Object({ type: Type.Literal('invoke'), invoke }, exact),
    deploy: Type.Object({ type: Type.Literal('deploy'), deployment: AccountDeploymentData }, exact),
    deploy_and_invoke: Type.Object(
      { type: Type.Literal('deploy_and_invoke'), deployment: AccountDeploymentData, invoke },
      exact,
    ),
  };
}

const TRANSACTIONS = {
  paymaster_buildTransaction: transactions(UserInvoke),
  paymaster_executeTransaction: transactions(ExecutableUserInvoke),
} as const;

export type TransactionMethod = keyof typeof TRANSACTIONS;

type Check = (value: unknown) => string | undefined;

/** A compiled schema that answers with the first problem, worded for a person; undefined when valid. */
function checker(schema: Type.TSchema, at: string): Check {
  let compiled: ReturnType<typeof Compile> | undefined;
  return (value) => {
    compiled ??= Compile(schema);
    if (compiled.Check(value)) return undefined;
    return describe([...compiled.Errors(value)], at);
  };
}

/** A key as it may appear in a message: quoted, and cut short (it is the caller's text). */
const quote = (key: string): string =>
  JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);

const decodePointer = (part: string): string => part.replace(/~1/g, '/').replace(/~0/g, '~');

/** `transaction` and `/invoke/calls/0` → `transaction.invoke.calls.0` */
const where = (at: string, instancePath: string): string =>
  [at, ...instancePath.split('/').slice(1).map(decodePointer)].join('.');

/**
 * The problem to report: an unknown key first (the attack this guards against), then a missing
 * one, then whatever the validator found first. Union branches each report, so this picks by
 * kind rather than by order.
 */
function describe(
  errors: Array<{ keyword: string; instancePath: string; params: unknown; message: string }>,
  at: string,
): string {
  for (const error of errors) {
    const extra = (error.params as { additionalProperties?: string[] }).additionalProperties;
    if (error.keyword === 'additionalProperties' && extra !== undefined && extra.length > 0)
      return `${where(at, error.instancePath)} has a key SNIP-29 does not define: ${quote(extra[0] as string)}`;
  }
  for (const error of errors) {
    const missing = (error.params as { requiredProperties?: string[] }).requiredProperties;
    if (error.keyword === 'required' && missing !== undefined && missing.length > 0)
      return `${where(at, error.instancePath)} lacks ${quote(missing[0] as string)}`;
  }
  const first = errors.find((error) => error.keyword !== 'boolean') ?? errors[0];
  return first === undefined
    ? `${at} is not of the SNIP-29 shape`
    : `${where(at, first.instancePath)} ${first.message}`;
}

const transactionCheckers = Object.fromEntries(
  Object.entries(TRANSACTIONS).map(([method, byType]) => [
    method,
    Object.fromEntries(
      Object.entries(byType).map(([type, schema]) => [type, checker(schema, 'transaction')]),
    ),
  ]),
) as Record<TransactionMethod, Record<TransactionType, Check>>;

const parametersChecker = checker(UserParameters, 'parameters');
/** Each fee mode's own shape, so that a problem is reported against the mode the caller named. */
const feeModeCheckers: Record<string, Check> = {
  sponsored: checker(SponsoredFeeMode, 'parameters.fee_mode'),
  default: checker(DefaultFeeMode, 'parameters.fee_mode'),
};

/**
 * The problem with `{transaction, parameters}` as params of `method`, undefined when they are
 * exactly SNIP-29's. The transaction's schema is picked by its `type` (so a problem is reported
 * against the form the caller meant, not against all three).
 */
export function snip29ParamsProblem(
  method: TransactionMethod,
  params: { transaction: Record<string, unknown>; parameters: Record<string, unknown> },
): string | undefined {
  const type = params.transaction.type;
  if (typeof type !== 'string' || !(TRANSACTION_TYPES as readonly string[]).includes(type))
    return `transaction.type must be one of ${TRANSACTION_TYPES.join(', ')}`;
  const feeMode = params.parameters.fee_mode as { mode?: unknown } | undefined;
  const mode = typeof feeMode?.mode === 'string' ? feeMode.mode : undefined;
  return (
    transactionCheckers[method][type as TransactionType](params.transaction) ??
    (mode !== undefined && Object.hasOwn(feeModeCheckers, mode)
      ? feeModeCheckers[mode]?.(feeMode)
      : undefined) ??
    parametersChecker(params.parameters)
  );
}
