/**
 * starknet.js's own SNIP-12 hasher, instrumented to count the work it does instead of timing it:
 * a second copy of starknet.js is loaded whose `@scure/starknet` (the hash primitives) is a shim
 * that counts every Pedersen hash, every element through Poseidon, every Poseidon pair and every
 * byte through keccak, and answers with a cheap mixing function instead of the real hash (so a
 * count of thousands of inputs takes milliseconds; the control flow of the encoder does not depend
 * on hash values). Field objects are wrapped in proxies that count each read of the encoder's
 * walks, and Array.prototype.includes is metered while hashing (getDependencies' list merging).
 *
 * The count is independent of server/typed-data-bounds.ts: it observes what the encoder does,
 * and only converts it to work units with the same per-operation costs (WORK).
 */
import { registerHooks } from 'node:module';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { TypedData } from 'starknet';
import { WORK } from '../../server/typed-data-bounds.js';

interface HashCount {
  pedersen: number;
  poseidonElements: number;
  /** calls of poseidonHashMany */
  poseidonCalls: number;
  poseidonPairs: number;
  keccakBytes: number;
  keccakCalls: number;
  fieldReads: number;
  listSteps: number;
  /** the primitive of the last hash: the final message hash shows the revision starknet.js chose */
  last: 'pedersen' | 'poseidon' | undefined;
}

interface CountedModule {
  typedData: {
    getMessageHash(data: TypedData, account: string): string;
    validateTypedData(data: unknown): boolean;
  };
}

const MARK = 'finance-tui-counted-hasher';
const STARK_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

function freshCount(): HashCount {
  return {
    pedersen: 0,
    poseidonElements: 0,
    poseidonCalls: 0,
    poseidonPairs: 0,
    keccakBytes: 0,
    keccakCalls: 0,
    fieldReads: 0,
    listSteps: 0,
    last: undefined,
  };
}

declare global {
  var __financeTuiHashCount: HashCount | undefined;
}

/** The shim's source: the real module re-exported, its hash functions replaced by counting ones. */
function shimSource(realUrl: string): string {
  return `
export * from ${JSON.stringify(realUrl)};
const P = ${STARK_PRIME}n;
const count = () => globalThis.__financeTuiHashCount;
const mix = (a, b) => (BigInt(a) * 0x9e3779b97f4a7c15f39cc0605cedc834n + BigInt(b) + 1n) % P;
export function pedersen(a, b) { const c = count(); if (c) { c.pedersen += 1; c.last = 'pedersen'; } return mix(a, b); }
export function poseidonHash(a, b) { const c = count(); if (c) { c.poseidonPairs += 1; c.last = 'poseidon'; } return mix(a, b); }
export function poseidonHashMany(values) { const c = count(); if (c) { c.poseidonElements += values.length; c.poseidonCalls += 1; c.last = 'poseidon'; } return values.reduce((h, v) => mix(h, v), BigInt(values.length)); }
export function keccak(data) { const c = count(); if (c) { c.keccakBytes += data.length; c.keccakCalls += 1; } let a = 7; let b = 0x811c9dc5; for (let i = 0; i < data.length; i++) { a = (Math.imul(a, 31) + data[i]) | 0; b = Math.imul(b ^ data[i], 0x01000193); } return (BigInt(a >>> 0) << 32n) | BigInt(b >>> 0); }
`;
}

let loaded: Promise<CountedModule> | undefined;

function load(): Promise<CountedModule> {
  if (typeof registerHooks !== 'function')
    throw new Error('the counted hasher needs node:module registerHooks (Node ≥ 22.15)');
  const require = createRequire(import.meta.url);
  const starknetUrl = pathToFileURL(require.resolve('starknet')).href.replace(
    /index\.js$/,
    'index.mjs',
  );
  // the hooks are process-wide: they stay only while this copy is loaded (the unit project's
  // files share a worker, test/unit-file-setup.ts)
  const hooks = registerHooks({
    resolve(specifier, context, next) {
      if (specifier === '@scure/starknet' && context.parentURL?.includes(MARK) === true) {
        const real = next(specifier, context);
        return { url: `${MARK}:${encodeURIComponent(real.url)}`, shortCircuit: true };
      }
      return next(specifier, context);
    },
    load(url, context, next) {
      if (url.startsWith(`${MARK}:`)) {
        return {
          format: 'module',
          source: shimSource(decodeURIComponent(url.slice(MARK.length + 1))),
          shortCircuit: true,
        };
      }
      return next(url, context);
    },
  });
  const copy = import(/* @vite-ignore */ `${starknetUrl}?${MARK}`) as Promise<CountedModule>;
  return copy.finally(() => hooks.deregister());
}

/** Field objects behind proxies that count reads of name, type and contains. */
function instrumentTypes(types: TypedData['types'], count: HashCount): TypedData['types'] {
  const handler: ProxyHandler<object> = {
    get(target, key, receiver) {
      if (key === 'name' || key === 'type' || key === 'contains') count.fieldReads += 1;
      return Reflect.get(target, key, receiver);
    },
  };
  return Object.fromEntries(
    Object.entries(types).map(([name, fields]) => [
      name,
      fields.map((field) => new Proxy(field, handler)),
    ]),
  ) as TypedData['types'];
}

export interface CountedHash {
  count: HashCount;
  /** count converted to work units (server/typed-data-bounds.ts WORK) */
  work: number;
  revision: '0' | '1' | undefined;
  /** the (fake) message hash, or the error starknet.js threw */
  result: { hash: string } | { error: string };
}

function workOf(count: HashCount): number {
  return (
    count.pedersen * WORK.pedersen +
    count.poseidonElements * WORK.poseidonElement +
    count.poseidonCalls * WORK.poseidonCall +
    count.poseidonPairs * WORK.poseidonPair +
    count.keccakBytes * WORK.keccakByte +
    count.keccakCalls * WORK.keccakCall +
    count.fieldReads * WORK.fieldRead +
    count.listSteps * WORK.listStep
  );
}

/** An instance of the counted hasher; `hash` runs what POST /sign/message runs (validate, then getMessageHash). */
export async function countedHasher(): Promise<{
  hash(data: TypedData, account?: string): CountedHash;
}> {
  loaded ??= load();
  const { typedData } = await loaded;
  return {
    hash(data, account = '0x1234') {
      const count = freshCount();
      const instrumented = { ...data, types: instrumentTypes(data.types, count) };
      const includes = Array.prototype.includes;
      Array.prototype.includes = function meteredIncludes(
        this: unknown[],
        ...args: [unknown, number?]
      ) {
        count.listSteps += this.length;
        return includes.apply(this, args);
      };
      globalThis.__financeTuiHashCount = count;
      let result: CountedHash['result'];
      try {
        if (!typedData.validateTypedData(instrumented)) throw new Error('not typed data');
        result = { hash: typedData.getMessageHash(instrumented, account) };
      } catch (error) {
        result = { error: error instanceof Error ? error.message : String(error) };
      } finally {
        Array.prototype.includes = includes;
        delete globalThis.__financeTuiHashCount;
      }
      const revision =
        count.last === 'pedersen' ? '0' : count.last === 'poseidon' ? '1' : undefined;
      return {
        count,
        work: workOf(count),
        revision: 'hash' in result ? revision : undefined,
        result,
      };
    },
  };
}
