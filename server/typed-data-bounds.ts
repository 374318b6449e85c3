/**
 * Bounds on untrusted SNIP-12 typed data, checked before starknet.js hashes it
 * (docs/architecture.md "Abuse bounds"; docs/execution.md "SNIP-12 hashing cost").
 *
 * starknet.js's encoder walks type dependencies without memoisation, and recomputes a struct's
 * type hash for every instance of it in the message: types that each refer to two others at the
 * next level make hashing exponential in depth (3 kB at depth 24 blocks the event loop ~10 s).
 * So before handing the data over we:
 * - bound its size, the number of types, fields per type, name lengths and scalar lengths;
 * - walk the type graph ourselves, with memoisation, refusing unknown names, cycles and a
 *   dependency depth above the bound;
 * - estimate the work starknet.js will do, as an upper bound that mirrors its algorithm
 *   (dependency expansions × dependency-list size, per type hash; one type hash per struct
 *   instance in the message), and refuse anything over a fixed budget.
 * Everything here is linear in the input (types ≤ 64, so per-type sets are small).
 *
 * The walk mirrors starknet.js 10 (utils/typedData.ts): `getDependencies` (trailing `*`
 * stripped once, revision 1 `enum` → `contains`, `(A,B)` tuples split), preset types
 * (u256, TokenAmount, NftId) in revision 1, and `encodeValue` for the message.
 */
import { AppError, ErrorCode } from '../shared/errors.js';

export const TYPED_DATA_LIMITS = {
  /** JSON size of the whole typed data */
  maxBytes: 128 * 1024,
  /** entries of `types`, the domain type included */
  maxTypes: 64,
  maxFieldsPerType: 64,
  /** longest chain of struct references from any type (OutsideExecution needs 2) */
  maxDepth: 8,
  /** type names, field names and type strings */
  maxNameLength: 256,
  /** a scalar (felt, shortstring, selector, …) written as a string; long `string`s are bounded by maxBytes */
  maxScalarLength: 256,
  /**
   * Upper bound on the hashing work, in hashed field elements (one element through Poseidon,
   * about 0.1 ms on one core); other work (dependency walks, type-string keccaks, merkle pairs)
   * is converted into the same unit (WORK below). 1,000 is about 0.1 s of hashing, and an
   * OutsideExecution with ~900 calldata felts.
   */
  maxWork: 1_000,
} as const;

/** What starknet.js's steps cost, in hashed field elements (measured with starknet.js 10.8). */
const WORK = {
  /** one step of getDependencies' list merging (about 1 ns) */
  listStep: 1 / 100_000,
  /** one byte of an encoded type string through keccak (about 0.13 µs) */
  typeStringByte: 1 / 1_000,
  /** one merkle-tree pair hash (a full Poseidon permutation) */
  merklePair: 3,
} as const;

export type TypedDataLimits = { [K in keyof typeof TYPED_DATA_LIMITS]: number };

interface Field {
  name: string;
  type: string;
  contains?: string;
}

type Types = Map<string, Field[]>;

/** revision 1 preset types, as starknet.js adds them (users may not redefine them) */
const PRESET_TYPES: Record<string, Field[]> = {
  u256: [
    { name: 'low', type: 'u128' },
    { name: 'high', type: 'u128' },
  ],
  TokenAmount: [
    { name: 'token_address', type: 'ContractAddress' },
    { name: 'amount', type: 'u256' },
  ],
  NftId: [
    { name: 'collection_address', type: 'ContractAddress' },
    { name: 'token_id', type: 'u256' },
  ],
};

function refuse(reason: string): never {
  throw new AppError(ErrorCode.VALIDATION_ERROR, `typed data refused before hashing: ${reason}`, { status: 400 });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** starknet.js identifyRevision: '1', '0', or undefined (then it refuses the data itself). */
function revisionOf(types: Record<string, unknown>, domain: unknown): '1' | '0' | undefined {
  const revision = isRecord(domain) ? domain.revision : undefined;
  if (Object.hasOwn(types, 'StarknetDomain') && revision !== undefined && revision !== null && String(revision) === '1') return '1';
  if (Object.hasOwn(types, 'StarkNetDomain') && (revision === undefined || revision === '0')) return '0';
  return undefined;
}

/**
 * The type names starknet.js getDependencies follows from a field (trailing `*` stripped once;
 * revision 1 `enum` → `contains`, `(A,B*)` → A, B), and the leaf type of a merkletree, which it
 * does not follow there but hashes every leaf as.
 */
function referencesOf(field: Field, revision: '1' | '0'): { follow: string[]; leaf: string | undefined } {
  const type = field.type;
  const leaf = type === 'merkletree' ? field.contains : undefined;
  if (type.endsWith('*')) return { follow: [type.slice(0, -1)], leaf };
  if (revision === '1') {
    if (type === 'enum') return { follow: field.contains === undefined ? [] : [field.contains], leaf };
    if (/^\(.*\)$/.test(type)) return { follow: type.slice(1, -1).split(',').map((t) => (t.endsWith('*') ? t.slice(0, -1) : t)), leaf };
  }
  return { follow: [type], leaf };
}

interface TypeCost {
  /** expansions × fields starknet.js's getDependencies does for this type (upper bound) */
  walk: number;
  /** the distinct types it depends on, itself included */
  deps: Set<string>;
  /** length of starknet.js's encodeType string (hashed by keccak on every type hash) */
  encoded: number;
  depth: number;
}

function readTypes(raw: Record<string, unknown>, limits: TypedDataLimits, revision: '1' | '0'): Types {
  const names = Object.keys(raw);
  if (names.length > limits.maxTypes) refuse(`${names.length} types (at most ${limits.maxTypes})`);
  const types: Types = new Map();
  for (const name of names) {
    if (name.length > limits.maxNameLength) refuse(`a type name is longer than ${limits.maxNameLength} characters`);
    const fields = raw[name];
    if (!Array.isArray(fields)) refuse(`type "${name.slice(0, 64)}" is not a list of fields`);
    if (fields.length > limits.maxFieldsPerType) refuse(`type "${name.slice(0, 64)}" has ${fields.length} fields (at most ${limits.maxFieldsPerType})`);
    const read: Field[] = [];
    for (const field of fields) {
      if (!isRecord(field) || typeof field.name !== 'string' || typeof field.type !== 'string') refuse(`type "${name.slice(0, 64)}" has a field without a name and a type`);
      const contains = field.contains;
      if (contains !== undefined && typeof contains !== 'string') refuse('a field has a "contains" that is not a type name');
      for (const text of [field.name, field.type, contains ?? '']) {
        if (text.length > limits.maxNameLength) refuse(`a field name or type is longer than ${limits.maxNameLength} characters`);
      }
      read.push({ name: field.name, type: field.type, ...(contains === undefined ? {} : { contains }) });
    }
    types.set(name, read);
  }
  if (revision === '1') for (const [name, fields] of Object.entries(PRESET_TYPES)) if (!types.has(name)) types.set(name, fields);
  return types;
}

/**
 * Per-type costs, memoised, in one depth-first pass; refuses a cycle or a chain deeper than the
 * bound (so the recursion here, and in walkValue, is shallow).
 *
 * `walk` counts what getDependencies does for one type: it expands the type (one step per
 * field), and for each field expands every referenced type that no earlier field of the same
 * type has already brought in; an expansion starts its own list, so the count of a type does not
 * depend on where it is expanded from, and memoises exactly.
 */
function typeCosts(types: Types, revision: '1' | '0', limits: TypedDataLimits): Map<string, TypeCost> {
  const costs = new Map<string, TypeCost>();
  const visiting = new Set<string>();
  const visit = (name: string): TypeCost => {
    const known = costs.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) refuse(`type "${name.slice(0, 64)}" refers to itself (directly or through other types)`);
    const fields = types.get(name) as Field[];
    visiting.add(name);
    const deps = new Set<string>([name]);
    // what this type's field loop has collected so far (starknet.js's `previous`)
    const found = new Set<string>();
    let walk = 1 + fields.length;
    let depth = 0;
    for (const field of fields) {
      const { follow, leaf } = referencesOf(field, revision);
      const followed = follow.filter((ref) => types.has(ref));
      const expanded = followed.filter((ref) => !found.has(ref));
      for (const ref of [...followed, ...(leaf !== undefined && types.has(leaf) ? [leaf] : [])]) {
        const sub = visit(ref);
        depth = Math.max(depth, sub.depth + 1);
        if (depth > limits.maxDepth) refuse(`type dependencies are nested deeper than ${limits.maxDepth} levels`);
      }
      for (const ref of expanded) walk += (costs.get(ref) as TypeCost).walk;
      for (const ref of followed) {
        for (const dep of (costs.get(ref) as TypeCost).deps) {
          deps.add(dep);
          found.add(dep);
        }
      }
    }
    visiting.delete(name);
    const cost: TypeCost = { walk, deps, encoded: encodedLength(types, deps), depth };
    costs.set(name, cost);
    return cost;
  };
  for (const name of types.keys()) visit(name);
  return costs;
}

function encodedLength(types: Types, deps: Set<string>): number {
  let length = 0;
  for (const dep of deps) {
    length += dep.length + 4;
    for (const field of types.get(dep) ?? []) length += field.name.length + (field.contains ?? field.type).length + 6;
  }
  return length;
}

/**
 * The cost starknet.js pays for one type hash: every dependency expansion merges lists with
 * `includes` (quadratic in the dependency count), then the sorted list is encoded and hashed.
 */
function typeHashWork(cost: TypeCost): number {
  const listSize = 1 + cost.deps.size;
  return cost.walk * listSize * listSize * WORK.listStep + cost.encoded * WORK.typeStringByte;
}

class Budget {
  spent = 0;
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  spend(units: number): void {
    this.spent += units;
    if (this.spent > this.limit) refuse(`hashing it would take too much work (over the equivalent of ${this.limit} hashed elements)`);
  }
}

interface WalkContext {
  types: Types;
  costs: Map<string, TypeCost>;
  revision: '1' | '0';
  limits: TypedDataLimits;
  budget: Budget;
}

/** `data[key]` as starknet.js reads it (inherited properties and string indexes included); undefined where it would throw. */
function member(data: unknown, key: string | number): unknown {
  if (data === null || data === undefined) return undefined;
  return (data as Record<string | number, unknown>)[key];
}

/** starknet.js finds an enum's or a merkletree's field again by name: the first field so named. */
function parentField(types: Types, parent: { type: string; key: string } | undefined): Field | undefined {
  return parent === undefined ? undefined : types.get(parent.type)?.find((field) => field.name === parent.key);
}

/**
 * Mirrors starknet.js encodeValue/encodeData over the message, charging what each step costs.
 * Returns false where starknet.js would throw (a missing field, a wrong shape): hashing stops
 * there, so the walk does too. Recursion follows the types, whose depth is bounded, never the
 * shape of the values.
 */
function walkValue(ctx: WalkContext, type: string, value: unknown, parent: { type: string; key: string } | undefined): boolean {
  const { types, costs, budget } = ctx;
  const struct = types.get(type);
  if (struct !== undefined) {
    // the type hash comes first (encodeData's initial value), whatever the data; then it and
    // one element per field go through Poseidon
    budget.spend(typeHashWork(costs.get(type) as TypeCost) + 1 + struct.length);
    for (const field of struct) {
      if (value === null || value === undefined) return false;
      const item = member(value, field.name);
      if (item === undefined || (item === null && field.type !== 'enum')) return false;
      if (!walkValue(ctx, field.type, item, { type, key: field.name })) return false;
    }
    return true;
  }
  if (type.endsWith('*')) {
    if (!Array.isArray(value) || !value.every((entry) => walkValue(ctx, type.slice(0, -1), entry, undefined))) return false;
    // the entries' hashes, hashed together
    budget.spend(value.length);
    return true;
  }
  if (ctx.revision === '1' && type === 'enum') {
    const contains = parentField(types, parent)?.contains;
    const variants = contains === undefined ? undefined : types.get(contains);
    if (value === null || value === undefined || variants === undefined) return false;
    const first = Object.entries(value as object)[0];
    const variant = first === undefined ? undefined : variants.find((v) => v.name === first[0]);
    if (first === undefined || variant === undefined) return false;
    const variantData = first[1];
    const subtypes = variant.type.slice(1, -1).split(',');
    budget.spend(1 + subtypes.length);
    return subtypes.every((subtype, index) => {
      if (subtype === '') return true;
      if (variantData === null || variantData === undefined) return false;
      return walkValue(ctx, subtype, member(variantData, index), undefined);
    });
  }
  if (type === 'merkletree') {
    const field = parentField(types, parent);
    const leafType = field?.type === 'merkletree' ? field.contains : undefined;
    if (!Array.isArray(value) || leafType === undefined || leafType.endsWith('*')) return false;
    if (!value.every((leaf) => walkValue(ctx, leafType, leaf, undefined))) return false;
    budget.spend(value.length * WORK.merklePair);
    return true;
  }
  // a scalar: felt, shortstring, selector, u128, ContractAddress, bool, a revision 1 long string…
  if (typeof value === 'string') {
    const longString = ctx.revision === '1' && type === 'string';
    if (!longString && value.length > ctx.limits.maxScalarLength) {
      refuse(`a ${type.slice(0, 64)} value is longer than ${ctx.limits.maxScalarLength} characters`);
    }
    // a long string is hashed as its 31-byte words; any other scalar is one element of its
    // parent's hash, already counted there
    if (longString) budget.spend(3 + Math.ceil(value.length / 31));
  }
  return true;
}

/**
 * The work units hashing `data` would cost starknet.js (see maxWork); throws 400
 * VALIDATION_ERROR naming the bound when `data` is over any of them. Data that is not typed data
 * at all costs 0: starknet.js refuses it at once.
 */
export function typedDataWork(data: unknown, limits: TypedDataLimits = TYPED_DATA_LIMITS): number {
  if (!isRecord(data)) return 0;
  const size = JSON.stringify(data).length;
  if (size > limits.maxBytes) refuse(`${size} bytes (at most ${limits.maxBytes})`);
  const { types: rawTypes, primaryType, domain, message } = data;
  if (!isRecord(rawTypes) || typeof primaryType !== 'string') return 0;
  const revision = revisionOf(rawTypes, domain);
  if (revision === undefined) return 0;
  const types = readTypes(rawTypes, limits, revision);
  for (const fields of types.values()) {
    for (const field of fields) {
      const { follow, leaf } = referencesOf(field, revision);
      for (const ref of leaf === undefined ? follow : [...follow, leaf]) {
        // starknet.js reads `types[name]`, inherited properties included: a field typed
        // "constructor" or "toString" must not reach it
        if (!types.has(ref) && ref in rawTypes) refuse(`type "${ref.slice(0, 64)}" is not a type of this data`);
      }
    }
  }
  const costs = typeCosts(types, revision, limits);
  const budget = new Budget(limits.maxWork);
  const ctx: WalkContext = { types, costs, revision, limits, budget };
  if (!walkValue(ctx, revision === '1' ? 'StarknetDomain' : 'StarkNetDomain', domain, undefined)) return budget.spent;
  walkValue(ctx, primaryType, message, undefined);
  // the message hash itself: prefix, domain hash, account, message hash
  budget.spend(4);
  return budget.spent;
}

/** Throws 400 VALIDATION_ERROR naming the bound when hashing `data` would be over any of them. */
export function checkTypedDataBounds(data: unknown, limits: TypedDataLimits = TYPED_DATA_LIMITS): void {
  typedDataWork(data, limits);
}
