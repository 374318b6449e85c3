/**
 * The official interfaces of shared/abi/ (docs/contracts.md "Official interfaces"), read for the
 * conformance suite: a contract's functions by name (from the interfaces its impls embed) and its
 * events by variant name (the contract's `Event` enum, `#[flat]` variants opened), each with the
 * Cairo types the ABI spells. Also encode/decode through starknet.js's CallData with that ABI, so
 * a test compares felts against what starknet.js compiles from the real ABI, not our own serde.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CallData, type Abi } from 'starknet';
import type { EntrypointSignature, EventSignature } from '../../shared/entrypoints.js';

export type OfficialContract =
  | 'staking'
  | 'staking-pool'
  | 'vesu-pool'
  | 'vesu-v-token'
  | 'vesu-pool-factory'
  | 'vesu-oracle'
  | 'erc20'
  | 'pragma-oracle';

export const OFFICIAL_CONTRACTS: readonly OfficialContract[] = [
  'staking',
  'staking-pool',
  'vesu-pool',
  'vesu-v-token',
  'vesu-pool-factory',
  'vesu-oracle',
  'erc20',
  'pragma-oracle',
];

type Entry = Record<string, unknown> & { type: string; name: string };
interface Member {
  name: string;
  type: string;
  kind?: string;
}
interface FunctionEntry {
  name: string;
  inputs: Member[];
  outputs: { type: string }[];
  state_mutability: string;
}

interface OfficialFunction extends EntrypointSignature {
  readonly mutability: 'view' | 'external';
  readonly inputNames: readonly string[];
}

interface OfficialAbi {
  readonly file: OfficialContract;
  readonly source: { repository: string; commit: string; paths: string[] };
  readonly abi: Abi;
  readonly functions: ReadonlyMap<string, OfficialFunction>;
  readonly events: ReadonlyMap<string, EventSignature & { readonly names: readonly string[] }>;
}

const ROOT = resolve(import.meta.dirname, '../../shared/abi');
const cache = new Map<OfficialContract, OfficialAbi>();

export function officialAbi(file: OfficialContract): OfficialAbi {
  const cached = cache.get(file);
  if (cached !== undefined) return cached;
  const parsed = JSON.parse(readFileSync(resolve(ROOT, `${file}.json`), 'utf8')) as {
    source: OfficialAbi['source'];
    abi: Entry[];
  };
  const result: OfficialAbi = {
    file,
    source: parsed.source,
    abi: parsed.abi as unknown as Abi,
    functions: functionsOf(parsed.abi),
    events: eventsOf(parsed.abi),
  };
  cache.set(file, result);
  return result;
}

/** The functions of the interfaces the contract's impls embed, plus top-level functions. */
export function functionsOf(abi: readonly Entry[]): Map<string, OfficialFunction> {
  const embedded = new Set(
    abi.filter((e) => e.type === 'impl').map((e) => e.interface_name as string),
  );
  const entries: FunctionEntry[] = [
    ...abi
      .filter((e) => e.type === 'interface' && embedded.has(e.name))
      .flatMap((e) => e.items as FunctionEntry[]),
    ...(abi.filter((e) => e.type === 'function') as unknown as FunctionEntry[]),
  ];
  const out = new Map<string, OfficialFunction>();
  for (const f of entries) {
    if (out.has(f.name)) throw new Error(`two functions named ${f.name}`);
    out.set(f.name, {
      inputs: f.inputs.map((i) => i.type),
      inputNames: f.inputs.map((i) => i.name),
      outputs: f.outputs.map((o) => o.type),
      mutability: f.state_mutability === 'view' ? 'view' : 'external',
    });
  }
  return out;
}

/**
 * The events a contract emits, by the variant name its keys[0] is the selector of: the top-level
 * `…::Event` enum's nested variants, and the variants of the enums it flattens.
 */
export function eventsOf(
  abi: readonly Entry[],
): Map<string, EventSignature & { readonly names: readonly string[] }> {
  const byName = new Map(abi.filter((e) => e.type === 'event').map((e) => [e.name, e]));
  const out = new Map<string, EventSignature & { names: string[] }>();
  const open = (enumName: string): void => {
    const entry = byName.get(enumName);
    if (entry === undefined) throw new Error(`no event ${enumName}`);
    for (const v of entry.variants as Member[]) {
      const target = byName.get(v.type);
      if (target === undefined) throw new Error(`no event ${v.type}`);
      if (target.kind === 'enum') {
        open(v.type);
        continue;
      }
      const members = target.members as Member[];
      out.set(v.name, {
        keys: members.filter((m) => m.kind === 'key').map((m) => m.type),
        data: members.filter((m) => m.kind === 'data').map((m) => m.type),
        names: members.map((m) => m.name),
      });
    }
  };
  // the contract's own Event enum: the one no other event names as a variant
  const nested = new Set(
    [...byName.values()]
      .filter((e) => e.kind === 'enum')
      .flatMap((e) => (e.variants as Member[]).map((v) => v.type)),
  );
  for (const e of byName.values()) if (e.kind === 'enum' && !nested.has(e.name)) open(e.name);
  return out;
}

/**
 * The felts starknet.js compiles for `values` of `types`, with the contract's ABI (its structs and
 * enums): a synthetic function whose inputs are those types, compiled by CallData.
 */
export function encodeWith(
  official: OfficialAbi,
  types: readonly string[],
  values: readonly unknown[],
): bigint[] {
  const name = '__conformance_encode__';
  const abi = [
    ...(official.abi as unknown as Entry[]),
    {
      type: 'function',
      name,
      inputs: types.map((type, i) => ({ name: `v${i}`, type })),
      outputs: [],
      state_mutability: 'view',
    },
  ];
  return new CallData(abi as unknown as Abi)
    .compile(name, values as unknown[] as never)
    .map((felt) => BigInt(felt));
}

/** starknet.js's decoding of a function's answer with the official ABI (throws if it cannot). */
function decodeOutputs(
  official: OfficialAbi,
  entrypoint: string,
  felts: readonly bigint[],
): unknown {
  return new CallData(official.abi).parse(
    entrypoint,
    felts.map((f) => `0x${f.toString(16)}`),
  );
}

/**
 * An answer checked against the official ABI: decoded with it, then re-encoded from what was
 * decoded; equal felts mean the answer has exactly the shape the real contract's has.
 */
export function roundTripOutputs(
  official: OfficialAbi,
  entrypoint: string,
  felts: readonly bigint[],
): bigint[] {
  const fn = official.functions.get(entrypoint);
  if (fn === undefined) throw new Error(`${official.file} has no ${entrypoint}`);
  const decoded = decodeOutputs(official, entrypoint, felts);
  const values = fn.outputs.length === 1 ? [decoded] : (decoded as unknown[]);
  return encodeWith(official, fn.outputs, values);
}
