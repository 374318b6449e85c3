/**
 * A validator for JSON-RPC answers against the official OpenRPC documents kept in
 * sandbox/chain/specs/ (starknet-specs v0.10.0 and SNIP-29), with ajv doing the JSON Schema work.
 *
 * Each document is registered whole under an `$id` that makes its relative cross-file `$ref`s
 * (`./api/starknet_api_openrpc.json#/components/...`) resolve to the other document, so no `$ref`
 * is rewritten. The specs' own quirks are patched on a copy, each named in QUIRKS below (the
 * files stay byte-identical to their source).
 *
 * - `result(method, value)`: the answer's `result` against the method's result schema;
 * - `params(method, params)`: the request's named params against the method's param schemas
 *   (so a conformance case cannot pass by sending what the spec does not allow);
 * - `error(method, error)`: the error object against the spec's error objects of that method
 *   (code, message word for word, `data` against its schema), or a JSON-RPC 2.0 standard error.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';

const SPECS = fileURLToPath(new URL('../../sandbox/chain/specs/', import.meta.url));
const BASE = 'https://specs.invalid/';

interface Document {
  id: string;
  file: string;
}

const DOCUMENTS: readonly Document[] = [
  {
    id: `${BASE}api/starknet_api_openrpc.json`,
    file: 'starknet-specs-v0.10.0/starknet_api_openrpc.json',
  },
  {
    id: `${BASE}starknet_trace_api_openrpc.json`,
    file: 'starknet-specs-v0.10.0/starknet_trace_api_openrpc.json',
  },
  { id: `${BASE}starknet_write_api.json`, file: 'starknet-specs-v0.10.0/starknet_write_api.json' },
  { id: `${BASE}snip-29/paymaster_api.json`, file: 'snip-29/paymaster_api.json' },
];

type Json = Record<string, unknown>;

const SCHEMA_KEYWORDS = [
  'type',
  '$ref',
  'properties',
  'oneOf',
  'anyOf',
  'allOf',
  'items',
  'enum',
  'required',
  'pattern',
];

/**
 * The specs' known quirks (sandbox/chain/specs/README.md), patched in the copy the validator uses:
 * 1. `{schema: X}` where a schema is expected (v0.10.0 simulateTransactions' items, TXN_WITH_HASH,
 *    BLOCK_BODY_WITH_TXS' items): ajv would ignore the unknown `schema` keyword and accept
 *    anything, so the wrapper is unwrapped to X;
 * 2. v0.10.0 CONTRACT_ERROR's `required: "revert_error"` (a string) → `["revert_error"]`;
 * 3. SNIP-29 UNKNOWN_ERROR's `data: "string"` → `{type: "string"}`;
 * 4. SNIP-29's STARKNET_DOMAIN.revision allows "2" or the numbers 0/1, while SNIP-12 revision 1
 *    typed data (what starknet.js hashes and AVNU serves) writes the string "1": "1" is allowed too;
 * 5. v0.10.0 getBlockWith…'s result is `oneOf` a block and a pre-confirmed block, but a block
 *    satisfies both: the pre-confirmed branch is made to exclude a `block_hash`.
 */
function patchSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(patchSchema);
  if (typeof node !== 'object' || node === null) return node;
  const object = node as Json;
  const keys = Object.keys(object);
  if ('schema' in object && !keys.some((key) => SCHEMA_KEYWORDS.includes(key)))
    return patchSchema(object.schema);
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) out[key] = patchSchema(value);
  if (typeof out.required === 'string') out.required = [out.required];
  return out;
}

function patchDocument(document: Json): Json {
  const components = document.components as Json;
  const patched: Json = { ...document, components: { ...components } };
  const out = patched.components as Json;
  out.schemas = patchSchema(components.schemas);
  if (components.errors !== undefined) {
    const errors: Json = {};
    for (const [name, error] of Object.entries(components.errors as Json)) {
      const spec = { ...(error as Json) };
      if (spec.data === 'string') spec.data = { type: 'string' };
      else if (spec.data !== undefined) spec.data = patchSchema(spec.data);
      errors[name] = spec;
    }
    out.errors = errors;
  }
  patched.methods = (document.methods as Json[]).map((method) => ({
    ...method,
    params: (method.params as Json[]).map((param) => ({
      ...param,
      schema: patchSchema(param.schema),
    })),
    result:
      method.result === undefined
        ? undefined
        : { ...(method.result as Json), schema: patchSchema((method.result as Json).schema) },
  }));
  // quirk 5: a whole block also satisfies its pre-confirmed form (whose header is a subset), so
  // getBlockWith…'s `oneOf` fails for every block; the pre-confirmed branch is told apart by
  // having no block_hash
  for (const method of patched.methods as Json[]) {
    const schema = (method.result as Json | undefined)?.schema as Json | undefined;
    if (!String(method.name).startsWith('starknet_getBlockWith') || !Array.isArray(schema?.oneOf))
      continue;
    schema.oneOf = (schema.oneOf as Json[]).map((branch) =>
      String(branch.$ref).includes('PRE_CONFIRMED')
        ? { allOf: [branch, { not: { required: ['block_hash'] } }] }
        : branch,
    );
  }
  const domain = (out.schemas as Json).STARKNET_DOMAIN as Json | undefined;
  const revision = (domain?.properties as Json | undefined)?.revision as Json | undefined;
  if (revision !== undefined)
    revision.oneOf = [...(revision.oneOf as unknown[]), { type: 'string', enum: ['1'] }];
  return patched;
}

interface SpecError {
  code: number;
  message: string;
  data?: unknown;
  /** where its `data` schema sits, for ajv (its `$ref`s are relative to its document) */
  dataRef?: string;
}

interface MethodEntry {
  document: Document;
  index: number;
  spec: Json;
  errors: SpecError[];
}

/** JSON-RPC 2.0's own errors, which any method may answer. */
const STANDARD_ERRORS: ReadonlyMap<number, string> = new Map([
  [-32700, 'Parse error'],
  [-32600, 'Invalid Request'],
  [-32601, 'Method not found'],
  [-32602, 'Invalid params'],
  [-32603, 'Internal error'],
]);

export class OpenRpcValidator {
  readonly #ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  readonly #methods = new Map<string, MethodEntry>();
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor() {
    const loaded = DOCUMENTS.map((document) => ({
      document,
      json: patchDocument(JSON.parse(readFileSync(`${SPECS}${document.file}`, 'utf8')) as Json),
    }));
    for (const { document, json } of loaded)
      this.#ajv.addSchema({ ...json, $id: document.id }, document.id);
    for (const { document, json } of loaded) {
      (json.methods as Json[]).forEach((spec, index) => {
        const errors = ((spec.errors as Json[] | undefined) ?? []).map((ref) =>
          this.#resolveError(document, json, loaded, ref),
        );
        this.#methods.set(spec.name as string, { document, index, spec, errors });
      });
    }
  }

  #resolveError(
    document: Document,
    json: Json,
    loaded: Array<{ document: Document; json: Json }>,
    ref: Json,
  ): SpecError {
    const target = ref.$ref;
    if (typeof target !== 'string') return ref as unknown as SpecError;
    const [file, pointer] = target.split('#') as [string, string];
    const owner =
      file === ''
        ? json
        : loaded.find((entry) => entry.document.id === new URL(file, document.id).href)?.json;
    const name = pointer.split('/').at(-1) as string;
    const ownerId = file === '' ? document.id : new URL(file, document.id).href;
    const error = ((owner?.components as Json | undefined)?.errors as Json | undefined)?.[name] as
      | SpecError
      | undefined;
    if (error === undefined) throw new Error(`unresolved error ${target} in ${document.file}`);
    return {
      ...error,
      ...(error.data === undefined
        ? {}
        : { dataRef: `${ownerId}#/components/errors/${name}/data` }),
    };
  }

  get methods(): string[] {
    return [...this.#methods.keys()];
  }

  has(method: string): boolean {
    return this.#methods.has(method);
  }

  /** The spec's error objects of `method`. */
  errorsOf(method: string): SpecError[] {
    return this.#entry(method).errors;
  }

  #entry(method: string): MethodEntry {
    const entry = this.#methods.get(method);
    if (entry === undefined) throw new Error(`${method} is in none of the specs`);
    return entry;
  }

  #validator(ref: string): ValidateFunction {
    let validate = this.#compiled.get(ref);
    if (validate === undefined) {
      validate = this.#ajv.compile({ $ref: ref });
      this.#compiled.set(ref, validate);
    }
    return validate;
  }

  #check(ref: string, value: unknown): string[] {
    const validate = this.#validator(ref);
    if (validate(value)) return [];
    return (validate.errors ?? [])
      .slice(0, 8)
      .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }

  /** Problems of `value` as the result of `method` ([] when valid). */
  result(method: string, value: unknown): string[] {
    const entry = this.#entry(method);
    return this.#check(`${entry.document.id}#/methods/${entry.index}/result/schema`, value);
  }

  /** Problems of named `params` as the params of `method` ([] when valid). */
  params(method: string, params: Record<string, unknown>): string[] {
    const entry = this.#entry(method);
    const specs = entry.spec.params as Json[];
    const problems: string[] = [];
    specs.forEach((param, index) => {
      const name = param.name as string;
      if (!(name in params)) {
        if (param.required === true) problems.push(`missing required param ${name}`);
        return;
      }
      problems.push(
        ...this.#check(
          `${entry.document.id}#/methods/${entry.index}/params/${index}/schema`,
          params[name],
        ).map((p) => `${name}: ${p}`),
      );
    });
    for (const name of Object.keys(params))
      if (!specs.some((param) => param.name === name)) problems.push(`unknown param ${name}`);
    return problems;
  }

  /** Problems of `error` as an error object of `method` ([] when it is one of the spec's, or a JSON-RPC standard error). */
  error(method: string, error: { code?: unknown; message?: unknown; data?: unknown }): string[] {
    const standard = typeof error.code === 'number' ? STANDARD_ERRORS.get(error.code) : undefined;
    if (standard !== undefined)
      return error.message === standard
        ? []
        : [`message "${String(error.message)}" is not "${standard}"`];
    const spec = this.#entry(method).errors.find((candidate) => candidate.code === error.code);
    if (spec === undefined) return [`code ${String(error.code)} is not an error of ${method}`];
    const problems: string[] = [];
    if (error.message !== spec.message)
      problems.push(`message "${String(error.message)}" is not the spec's "${spec.message}"`);
    if (spec.dataRef !== undefined)
      problems.push(...this.#check(spec.dataRef, error.data).map((p) => `data: ${p}`));
    return problems;
  }
}
