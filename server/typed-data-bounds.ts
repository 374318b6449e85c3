/**
 * Untrusted SNIP-12 typed data, classified and bounded before starknet.js hashes it
 * (docs/server-security.md "Typed data"; docs/execution.md "SNIP-12 hashing cost").
 *
 * A guard that cannot classify its input refuses it. `checkTypedData` reads the data the way
 * starknet.js 10's hasher will (utils/typedData.ts: identifyRevision, getDependencies,
 * encodeType, encodeValue, encodeData, MerkleTree), accepts only shapes whose hashing cost it can
 * tell, charges that cost against a fixed budget, and returns a copy holding exactly what it
 * walked. The route hashes that copy, never the request: whatever the walk did not see (an
 * undeclared key, a value under a name the hasher would not read) is not there to be hashed.
 *
 * What it accepts, and why (anything else is a 400 VALIDATION_ERROR naming the reason):
 * - the revision exactly as identifyRevision decides it, for the spellings `1`/"1" (revision 1,
 *   with a `StarknetDomain` type) and "0", null or absent (revision 0, with `StarkNetDomain`);
 *   any other value (0, [1], true, "01", …) is refused rather than guessed at;
 * - type names that are not reserved (basic types, revision 1 presets, `raw`), not inherited
 *   object properties, not array or tuple shaped; fields with a name and a type, names unique
 *   in their type; every field type one the hasher knows for that revision;
 * - `enum` (revision 1) with a `contains` naming a declared type of tuple variants, and a value
 *   of exactly one variant; `merkletree` only as a field of a struct (where the hasher finds its
 *   leaf type), with 1 to maxMerkleLeaves leaves; tuple types only as enum variants;
 * - values of the declared shape: a struct an object holding every field, an array an array, a
 *   scalar a string, number or boolean;
 * - nesting: the JSON value at most maxValueDepth deep, checked by an iterative walk before
 *   anything recurses; type dependencies at most maxDepth deep, without cycles.
 *
 * The work estimate is an upper bound of what the hasher does, in units of one element hashed by
 * Poseidon (see WORK): dependency walks and their list merging, type strings through keccak, one
 * type hash per struct instance (starknet.js does not memoise it), every element through
 * Poseidon (revision 1) or Pedersen (revision 0, ~16 times dearer), merkle pairs.
 * server/typed-data-work.test.ts checks it against a count of what starknet.js really does.
 */
import type { TypedData } from 'starknet';
import { AppError, ErrorCode } from '../shared/errors.js';

export const TYPED_DATA_LIMITS = {
  /** JSON size of the whole typed data */
  maxBytes: 128 * 1024,
  /** nesting of the JSON value (objects and arrays), checked before anything recurses */
  maxValueDepth: 64,
  /** entries of `types`, the domain type included */
  maxTypes: 64,
  maxFieldsPerType: 64,
  /** longest chain of struct references from any type (OutsideExecution needs 2) */
  maxDepth: 8,
  /** type names, field names and type strings */
  maxNameLength: 256,
  /** a scalar (felt, shortstring, selector, …) written as a string; long `string`s are bounded by maxBytes and the work */
  maxScalarLength: 256,
  /** leaves of one merkletree */
  maxMerkleLeaves: 256,
  /**
   * Upper bound on the hashing work, in elements hashed by Poseidon (~0.15–0.2 ms each on one
   * core): the heaviest shape accepted costs 1.1–1.4 × 380 elements as measured, ~0.1 s at most
   * (docs/server-security.md "Typed data"); an OutsideExecution of 10 calls × 20 calldata felts
   * is 374. bench/typed-data-cost.ts measures the heaviest accepted shape of each family.
   */
  maxWork: 380,
} as const;

type TypedDataLimits = { [K in keyof typeof TYPED_DATA_LIMITS]: number };

/**
 * What starknet.js's steps cost, in elements hashed by Poseidon (measured with starknet.js 10.8,
 * relative to an element of a long poseidonHashMany in the same run: a call of it ~2–3 elements
 * more than its elements, a Poseidon pair ~2, a Pedersen hash ~7–15, a struct field's encoding
 * and reads ~1.3 elements with the element, a keccak call ~0.2 and ~1/1000 a byte). Issue 27
 * found the heaviest accepted shapes at 1.1–1.5× their estimate (many small structs, presets):
 * the fixed cost of each hash call and of each field read were missing.
 */
export const WORK = {
  /** one element through poseidonHashMany */
  poseidonElement: 1,
  /** one call of poseidonHashMany, whatever its length (its padding permutation and conversions) */
  poseidonCall: 3,
  /** one poseidonHash(a, b) (a revision 1 merkle pair) */
  poseidonPair: 3,
  /** one Pedersen hash: revision 0 hashes every element, and every merkle pair, with one */
  pedersen: 16,
  /** one byte of a type string (or a selector name) through keccak */
  keccakByte: 1 / 1_000,
  /** one keccak call (a type hash, a selector by name), whatever its length */
  keccakCall: 1 / 2,
  /** one read of a field's name, type or contains by the encoder (a step of its walks) */
  fieldRead: 1 / 20,
  /** one comparison of getDependencies' list merging (`includes`) */
  listStep: 1 / 100_000,
} as const;

type Revision = '0' | '1';

export interface CheckedTypedData {
  /** a copy of what was checked: hash this, not the request */
  data: TypedData;
  revision: Revision;
  /** the estimated work (≤ maxWork) */
  work: number;
}

interface Field {
  name: string;
  type: string;
  contains?: string;
}

/** revision 1 preset types, exactly as starknet.js adds them (data may not redefine them) */
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

/** the basic types of revision 1's encodeValue; anything else that is not a struct it refuses */
const REVISION_1_SCALARS = new Set([
  'felt',
  'shortstring',
  'selector',
  'string',
  'i128',
  'u128',
  'timestamp',
  'ClassHash',
  'ContractAddress',
  'bool',
]);
/** names the encoder gives a meaning of its own: a struct so named would change how others hash */
const RESERVED_NAMES = new Set([...REVISION_1_SCALARS, 'enum', 'merkletree', 'raw']);
/** revision 0 hashes any other type name as a felt (getHex); we accept plain identifiers only */
const REVISION_0_SCALAR = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TUPLE = /^\(.*\)$/;

function refuse(reason: string): never {
  throw new AppError(ErrorCode.VALIDATION_ERROR, `typed data refused before hashing: ${reason}`);
}

/** A name as it may appear in an error message: printable, short, quoted. */
function shown(name: string): string {
  const printable = name.replace(/[^\x20-\x7e]/g, '?');
  return `"${printable.length > 64 ? `${printable.slice(0, 64)}…` : printable}"`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** `name` would reach something the object inherits (`types[name]`, `data[name]` in starknet.js). */
function inherited(name: string): boolean {
  return name in Object.prototype;
}

/**
 * The JSON size and nesting of `value`, by an iterative walk (no recursion, so a value nested
 * thousands deep is refused here instead of overflowing the stack anywhere later). Refuses what
 * JSON cannot hold.
 */
function measure(value: unknown, limits: TypedDataLimits): void {
  const pending: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  let bytes = 0;
  while (pending.length > 0) {
    const { node, depth } = pending.pop() as { node: unknown; depth: number };
    if (typeof node === 'string') bytes += node.length + 2;
    else if (typeof node === 'number') {
      if (!Number.isFinite(node)) refuse('a number is not finite');
      bytes += String(node).length;
    } else if (typeof node === 'boolean' || node === null) bytes += 5;
    else if (Array.isArray(node) || isRecord(node)) {
      if (depth >= limits.maxValueDepth)
        refuse(`values are nested deeper than ${limits.maxValueDepth} levels`);
      bytes += 2;
      if (Array.isArray(node)) {
        for (const item of node) {
          bytes += 1;
          pending.push({ node: item, depth: depth + 1 });
        }
      } else {
        for (const [key, item] of Object.entries(node)) {
          bytes += key.length + 4;
          pending.push({ node: item, depth: depth + 1 });
        }
      }
    } else refuse('it holds something that is not JSON');
    if (bytes > limits.maxBytes) refuse(`more than ${limits.maxBytes} bytes`);
  }
}

/**
 * starknet.js identifyRevision, for the spellings we accept: revision 1 needs a `StarknetDomain`
 * type and `revision` whose string is "1"; revision 0 a `StarkNetDomain` type and `revision`
 * "0", null or absent. Both tests in its order (a data with both domain types and revision 1 is
 * revision 1).
 */
function classifyRevision(
  types: Record<string, unknown>,
  domain: Record<string, unknown>,
): Revision {
  const revision = Object.hasOwn(domain, 'revision') ? domain.revision : undefined;
  if (
    !(
      revision === undefined ||
      revision === null ||
      revision === '0' ||
      revision === '1' ||
      revision === 1
    )
  ) {
    refuse('domain.revision must be 1 or "1" (revision 1), or "0", null or absent (revision 0)');
  }
  if (
    Object.hasOwn(types, 'StarknetDomain') &&
    revision !== undefined &&
    revision !== null &&
    String(revision) === '1'
  )
    return '1';
  if (Object.hasOwn(types, 'StarkNetDomain') && (revision ?? '0') === '0') return '0';
  refuse(
    'no domain type for its revision (StarknetDomain with revision 1; StarkNetDomain with revision 0, null or absent)',
  );
}

type Kind =
  | { kind: 'struct' }
  | { kind: 'array'; element: string }
  | { kind: 'enum' }
  | { kind: 'merkletree' }
  | { kind: 'tuple' }
  | { kind: 'scalar' };

class Schema {
  /** declared types, plus the presets in revision 1 (what encodeType's allTypes holds) */
  readonly types = new Map<string, Field[]>();
  readonly declared: Record<string, Field[]> = {};
  readonly revision: Revision;
  constructor(revision: Revision) {
    this.revision = revision;
  }

  /** How encodeValue treats a value of `type` (struct first, as it looks `types[type]` up first). */
  kindOf(type: string): Kind {
    if (inherited(type)) refuse(`type ${shown(type)} is an inherited object property`);
    if (this.types.has(type)) return { kind: 'struct' };
    if (type.endsWith('*')) return { kind: 'array', element: type.slice(0, -1) };
    if (type === 'merkletree') return { kind: 'merkletree' };
    if (this.revision === '1') {
      if (type === 'enum') return { kind: 'enum' };
      if (TUPLE.test(type)) return { kind: 'tuple' };
      if (REVISION_1_SCALARS.has(type)) return { kind: 'scalar' };
      refuse(`type ${shown(type)} is neither declared nor a revision 1 basic type`);
    }
    if (!REVISION_0_SCALAR.test(type))
      refuse(`type ${shown(type)} is neither declared nor a plain name`);
    return { kind: 'scalar' };
  }
}

function readTypes(
  raw: Record<string, unknown>,
  revision: Revision,
  limits: TypedDataLimits,
): Schema {
  const schema = new Schema(revision);
  const names = Object.keys(raw);
  if (names.length > limits.maxTypes) refuse(`${names.length} types (at most ${limits.maxTypes})`);
  for (const name of names) {
    if (name.length === 0 || name.length > limits.maxNameLength)
      refuse(`a type name is empty or longer than ${limits.maxNameLength} characters`);
    if (
      inherited(name) ||
      RESERVED_NAMES.has(name) ||
      name.endsWith('*') ||
      TUPLE.test(name) ||
      name.includes(',')
    ) {
      refuse(`type name ${shown(name)} is reserved`);
    }
    if (revision === '1' && Object.hasOwn(PRESET_TYPES, name))
      refuse(`type name ${shown(name)} is a revision 1 preset`);
    const fields = raw[name];
    if (!Array.isArray(fields)) refuse(`type ${shown(name)} is not a list of fields`);
    if (fields.length > limits.maxFieldsPerType)
      refuse(
        `type ${shown(name)} has ${fields.length} fields (at most ${limits.maxFieldsPerType})`,
      );
    const read: Field[] = [];
    const seen = new Set<string>();
    for (const field of fields) {
      if (!isRecord(field) || typeof field.name !== 'string' || typeof field.type !== 'string')
        refuse(`type ${shown(name)} has a field without a name and a type`);
      const contains = field.contains;
      if (contains !== undefined && typeof contains !== 'string')
        refuse(`field ${shown(field.name)} has a "contains" that is not a type name`);
      for (const text of [field.name, field.type, contains ?? '']) {
        if (text.length > limits.maxNameLength)
          refuse(`a field name or type is longer than ${limits.maxNameLength} characters`);
      }
      if (inherited(field.name))
        refuse(`field name ${shown(field.name)} is an inherited object property`);
      if (seen.has(field.name))
        refuse(`type ${shown(name)} has two fields named ${shown(field.name)}`);
      seen.add(field.name);
      read.push({
        name: field.name,
        type: field.type,
        ...(contains === undefined ? {} : { contains }),
      });
    }
    schema.types.set(name, read);
    schema.declared[name] = read;
  }
  if (revision === '1')
    for (const [name, fields] of Object.entries(PRESET_TYPES)) schema.types.set(name, fields);
  // every field type must be one the hasher knows; enums and merkletrees must name their content
  for (const [name, fields] of schema.types) {
    for (const field of fields) {
      const kind = schema.kindOf(field.type);
      if (kind.kind === 'array') checkElementType(schema, kind.element);
      if (kind.kind === 'enum') {
        const variants =
          field.contains === undefined || inherited(field.contains)
            ? undefined
            : schema.declared[field.contains];
        if (variants === undefined)
          refuse(
            `enum field ${shown(field.name)} of ${shown(name)} must name a declared type of variants in "contains"`,
          );
        for (const variant of variants) {
          if (!TUPLE.test(variant.type))
            refuse(`enum variant ${shown(variant.name)} must have a tuple type like "(felt,u128)"`);
          for (const subtype of tupleTypes(variant.type))
            if (subtype !== '') checkElementType(schema, subtype);
        }
      }
      if (kind.kind === 'merkletree') {
        if (field.contains === undefined || field.contains.endsWith('*'))
          refuse(
            `merkletree field ${shown(field.name)} must name its leaf type (not an array) in "contains"`,
          );
        checkElementType(schema, field.contains);
      }
    }
  }
  return schema;
}

/** A type of an array element, an enum variant member or a merkle leaf: the hasher has no parent field there. */
function checkElementType(schema: Schema, type: string): void {
  let element = type;
  for (;;) {
    const kind = schema.kindOf(element);
    if (kind.kind === 'array') {
      element = kind.element;
      continue;
    }
    // starknet.js finds an enum's variants and a merkletree's leaf type through the parent
    // struct's field; without one it fails (revision 1) or hashes leaves as raw felts (revision 0)
    if (kind.kind === 'enum' || kind.kind === 'merkletree' || kind.kind === 'tuple')
      refuse(`type ${shown(type)} can only be the type of a struct field`);
    return;
  }
}

function tupleTypes(type: string): string[] {
  return type.slice(1, -1).split(',');
}

/** The type names getDependencies follows from a field (its trailing `*` stripped once; revision 1 enum → contains, tuples split). */
function followed(field: Field, revision: Revision): string[] {
  const type = field.type;
  if (type.endsWith('*')) return [type.slice(0, -1)];
  if (revision === '1') {
    if (type === 'enum') return [field.contains ?? ''];
    if (TUPLE.test(type))
      return tupleTypes(type).map((t) => (t.endsWith('*') ? t.slice(0, -1) : t));
  }
  return [type];
}

interface TypeCost {
  /** getDependencies' expansions and field steps for this type */
  walk: number;
  /** the distinct types it depends on, itself included */
  deps: Set<string>;
  depth: number;
  /** work units of one getTypeHash of it */
  hash: number;
}

/**
 * Per-type costs, memoised, in one depth-first pass that refuses cycles and chains deeper than
 * maxDepth (so this recursion is shallow). `walk` counts what getDependencies does expanding one
 * type: one step per field, and for each field the expansion of every followed type that no
 * earlier field of this type has brought in (an expansion starts its own list, so the count of a
 * type does not depend on where it is expanded from, and memoises exactly).
 */
function typeCosts(schema: Schema, limits: TypedDataLimits): Map<string, TypeCost> {
  const costs = new Map<string, TypeCost>();
  const visiting = new Set<string>();
  const visit = (name: string): TypeCost => {
    const known = costs.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name))
      refuse(`type ${shown(name)} refers to itself (directly or through other types)`);
    const fields = schema.types.get(name) as Field[];
    visiting.add(name);
    const deps = new Set<string>([name]);
    const found = new Set<string>();
    let walk = 1 + fields.length;
    let depth = 0;
    for (const field of fields) {
      const refs = followed(field, schema.revision).filter((ref) => schema.types.has(ref));
      const expanded = refs.filter((ref) => !found.has(ref));
      for (const ref of refs) {
        depth = Math.max(depth, visit(ref).depth + 1);
        if (depth > limits.maxDepth)
          refuse(`type dependencies are nested deeper than ${limits.maxDepth} levels`);
      }
      for (const ref of expanded) walk += (costs.get(ref) as TypeCost).walk;
      for (const ref of refs) {
        for (const dep of (costs.get(ref) as TypeCost).deps) {
          deps.add(dep);
          found.add(dep);
        }
      }
    }
    visiting.delete(name);
    const cost: TypeCost = { walk, deps, depth, hash: typeHashWork(schema, walk, deps) };
    costs.set(name, cost);
    return cost;
  };
  for (const name of schema.types.keys()) visit(name);
  return costs;
}

/**
 * One getTypeHash: the dependency walk (two field reads a step, list merging quadratic in the
 * dependency count), encodeType's string (three reads a field of every dependency) and its
 * keccak, and the copy of every type into allTypes.
 */
function typeHashWork(schema: Schema, walk: number, deps: Set<string>): number {
  let fields = 0;
  let encoded = 0;
  for (const dep of deps) {
    encoded += dep.length + 4;
    for (const field of schema.types.get(dep) as Field[]) {
      fields += 1;
      // a tuple's members are each quoted: at most three characters for one
      encoded += field.name.length + 3 * (field.contains ?? field.type).length + 8;
    }
  }
  const list = deps.size + 2;
  return (
    (2 * walk + 3 * fields) * WORK.fieldRead +
    2 * walk * list * list * WORK.listStep +
    encoded * WORK.keccakByte +
    WORK.keccakCall +
    (schema.types.size + 8) * WORK.listStep * 16
  );
}

class Budget {
  spent = 0;
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  spend(units: number): void {
    this.spent += units;
    if (this.spent > this.limit)
      refuse(
        `hashing it would take too much work (over the equivalent of ${this.limit} hashed elements)`,
      );
  }
}

interface Walk {
  schema: Schema;
  costs: Map<string, TypeCost>;
  limits: TypedDataLimits;
  budget: Budget;
}

/** Work of hashing `elements` values together (hashMethod): Poseidon, or Pedersen over each and the length. */
function hashOf(walk: Walk, elements: number): number {
  return walk.schema.revision === '1'
    ? WORK.poseidonCall + elements * WORK.poseidonElement
    : (elements + 1) * WORK.pedersen;
}

/** Work of a merkle tree over `leaves` hashes: one pair hash per two nodes, level by level (an odd one pairs with 0). */
function merkleWork(walk: Walk, leaves: number): number {
  let pairs = 0;
  for (let level = leaves; level > 1; level = Math.ceil(level / 2)) pairs += Math.ceil(level / 2);
  return pairs * (walk.schema.revision === '1' ? WORK.poseidonPair : WORK.pedersen);
}

/**
 * A struct value: every field present (the hasher throws on a missing one), charged its type
 * hash, the reads of encodeData, and the hash over the type hash and one element per field.
 * Returns the copy, which holds the declared fields only.
 */
function walkStruct(
  walk: Walk,
  type: string,
  value: unknown,
  path: string,
): Record<string, unknown> {
  const fields = walk.schema.types.get(type) as Field[];
  if (!isRecord(value)) refuse(`${path} must be an object (a ${shown(type)})`);
  walk.budget.spend(
    (walk.costs.get(type) as TypeCost).hash +
      6 * fields.length * WORK.fieldRead +
      hashOf(walk, 1 + fields.length),
  );
  const copy: Record<string, unknown> = {};
  for (const field of fields) {
    const item = Object.hasOwn(value, field.name) ? value[field.name] : undefined;
    const at = `${path}.${shown(field.name)}`;
    if (item === undefined || item === null) refuse(`${at} is missing`);
    copy[field.name] = walkField(walk, type, fields, field, item, at);
  }
  return copy;
}

/** A struct field: enums and merkletrees read their parent field again (a find over the parent's fields). */
function walkField(
  walk: Walk,
  parent: string,
  siblings: Field[],
  field: Field,
  value: unknown,
  path: string,
): unknown {
  const kind = walk.schema.kindOf(field.type);
  if (kind.kind === 'enum') {
    const variants = walk.schema.declared[field.contains as string] as Field[];
    if (!isRecord(value)) refuse(`${path} must be an object naming one variant`);
    const entries = Object.entries(value);
    if (entries.length !== 1) refuse(`${path} must name exactly one variant`);
    const [name, data] = entries[0] as [string, unknown];
    const variant = variants.find((v) => v.name === name);
    if (variant === undefined)
      refuse(`${path} names no variant of ${shown(field.contains as string)}`);
    if (!Array.isArray(data))
      refuse(`${path}.${shown(name)} must be an array of the variant's values`);
    const members = tupleTypes(variant.type);
    walk.budget.spend(
      (siblings.length + variants.length + 3) * WORK.fieldRead + hashOf(walk, 1 + members.length),
    );
    // an empty member (the unit variant "()") is not read: null holds its place in the copy
    const copied = members.map((member, index) => {
      if (member === '') return null;
      const at = `${path}.${shown(name)}[${index}]`;
      if (data[index] === undefined || data[index] === null) refuse(`${at} is missing`);
      return walkValue(walk, member, data[index], at);
    });
    return { [name]: copied };
  }
  if (kind.kind === 'merkletree') {
    if (!Array.isArray(value) || value.length === 0)
      refuse(`${path} must be a non-empty array of leaves`);
    if (value.length > walk.limits.maxMerkleLeaves)
      refuse(`${path} has ${value.length} leaves (at most ${walk.limits.maxMerkleLeaves})`);
    walk.budget.spend((siblings.length + 3) * WORK.fieldRead + merkleWork(walk, value.length));
    return value.map((leaf, index) =>
      walkValue(walk, field.contains as string, leaf, `${path}[${index}]`),
    );
  }
  if (kind.kind === 'tuple')
    refuse(
      `${path}: a tuple type is only an enum variant (field ${shown(field.name)} of ${shown(parent)})`,
    );
  return walkValue(walk, field.type, value, path);
}

/** A value of `type` where the hasher has no parent field (array entries, variant members, leaves, and fields through walkField). */
function walkValue(walk: Walk, type: string, value: unknown, path: string): unknown {
  const kind = walk.schema.kindOf(type);
  switch (kind.kind) {
    case 'struct':
      return walkStruct(walk, type, value, path);
    case 'array': {
      if (!Array.isArray(value)) refuse(`${path} must be an array`);
      walk.budget.spend(hashOf(walk, value.length));
      return value.map((entry, index) => {
        if (entry === undefined || entry === null) refuse(`${path}[${index}] is missing`);
        return walkValue(walk, kind.element, entry, `${path}[${index}]`);
      });
    }
    case 'scalar':
      return walkScalar(walk, type, value, path);
    default:
      // enum, merkletree and tuple values exist only as struct fields (readTypes checked)
      return refuse(`${path}: type ${shown(type)} can only be the type of a struct field`);
  }
}

function walkScalar(walk: Walk, type: string, value: unknown, path: string): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'string') refuse(`${path} must be a string, a number or a boolean`);
  if (walk.schema.revision === '1' && type === 'string') {
    // a long string: its 31-character words, their count, the pending word and its length
    walk.budget.spend(hashOf(walk, Math.floor(value.length / 31) + 3));
    return value;
  }
  if (value.length > walk.limits.maxScalarLength)
    refuse(`${path} is longer than ${walk.limits.maxScalarLength} characters`);
  // a selector given by name goes through keccak
  if (type === 'selector')
    walk.budget.spend(WORK.keccakCall + Buffer.byteLength(value) * WORK.keccakByte);
  return value;
}

/**
 * Classifies and bounds `data` as starknet.js will hash it; returns the copy to hash, its
 * revision and the estimated work. Throws 400 VALIDATION_ERROR naming the reason for anything
 * it cannot classify, and for anything over a bound.
 */
export function checkTypedData(
  data: unknown,
  limits: TypedDataLimits = TYPED_DATA_LIMITS,
): CheckedTypedData {
  measure(data, limits);
  if (!isRecord(data)) refuse('it must be an object {types, primaryType, domain, message}');
  const { types: rawTypes, primaryType, domain, message } = data;
  if (!isRecord(rawTypes)) refuse('"types" must be an object of type definitions');
  if (typeof primaryType !== 'string') refuse('"primaryType" must be a type name');
  if (!isRecord(domain)) refuse('"domain" must be an object');
  const revision = classifyRevision(rawTypes, domain);
  const schema = readTypes(rawTypes, revision, limits);
  if (!schema.types.has(primaryType) || inherited(primaryType))
    refuse(`primaryType ${shown(primaryType)} is not a type of this data`);
  const costs = typeCosts(schema, limits);
  const budget = new Budget(limits.maxWork);
  const walk: Walk = { schema, costs, limits, budget };
  // starknet.js validateTypedData and the final hash: prefix, domain hash, account, message hash
  budget.spend(Object.keys(rawTypes).length * 8 * WORK.listStep + hashOf(walk, 4));
  const domainType = revision === '1' ? 'StarknetDomain' : 'StarkNetDomain';
  const domainCopy = walkStruct(walk, domainType, domain, 'domain');
  // identifyRevision reads domain.revision whether or not the domain type declares it
  if (Object.hasOwn(domain, 'revision')) domainCopy.revision = domain.revision;
  const messageCopy = walkStruct(walk, primaryType, message, 'message');
  const copy = {
    types: schema.declared,
    primaryType,
    domain: domainCopy,
    message: messageCopy,
  } as unknown as TypedData;
  return { data: copy, revision, work: budget.spent };
}
