/**
 * The sandbox paymaster's root (docs/sandbox-chain.md "SNIP-29 paymaster"): what its method modules
 * register on, in the manner of a Fastify plugin — each module's `register(root, deps)` adds its
 * SNIP-29 methods with `root.method`. The root owns the method table the JSON-RPC dispatch serves
 * (sandbox/chain/jsonrpc.ts: batches, params, error objects), the bounded memory of builds and
 * tracking ids the modules share, and the knobs; a method registered twice is a bug, refused at
 * start.
 */
import { randomBytes } from 'node:crypto';
import type { Token } from '../../../shared/tokens.js';
import type { Chain, OutsideCall } from '../chain.js';
import { hex } from '../executor.js';
import type { GasPrices } from '../gas.js';
import type { Method, MethodTable } from '../jsonrpc.js';

/** Remembered builds; the oldest go first when full. */
const MAX_BUILDS = 10_000;
/** Remembered tracking ids (paymaster_trackingIdToLatestHash); the oldest go first when full. */
export const MAX_TRACKED = 10_000;

export type TamperMode = 'calldata' | 'extra-call' | 'fee-amount' | 'chain-id' | 'selector-text';

export interface PaymasterKnobs {
  tamper: { mode: TamperMode; count: number } | undefined;
  gasPricesAfterNextBuild: GasPrices | undefined;
}

/** A built transaction as execute will accept it, remembered under its outside-execution Nonce. */
export interface Build {
  type: 'invoke' | 'deploy_and_invoke';
  user: bigint;
  typedData: Record<string, unknown>;
  calls: OutsideCall[];
  deployment: Record<string, unknown> | undefined;
  publicKey: bigint | undefined;
  feeMode: { mode: 'sponsored' } | { mode: 'default'; token: Token; max: bigint };
  executeAfter: bigint;
  executeBefore: bigint;
}

/** What every method module is given. */
export interface PaymasterDeps {
  chain: Chain;
  /** when set, sponsored mode needs `x-paymaster-api-key` equal to it (as AVNU's does) */
  apiKey: string | undefined;
  knobs: PaymasterKnobs;
  builds: {
    /** remembers `build` (expired ones dropped first; the oldest when full) */
    remember(nonce: string, build: Build): void;
    get(nonce: string): Build | undefined;
    forget(nonce: string): void;
  };
  tracking: {
    /** a fresh tracking id for a relayed transaction */
    track(transactionHash: bigint): string;
    hashOf(id: string): bigint | undefined;
  };
}

interface PaymasterRoot {
  /** adds a SNIP-29 method */
  method(name: `paymaster_${string}`, method: Method): void;
}

/** A group of methods (status, build, execute). */
export type PaymasterModule = (root: PaymasterRoot, deps: PaymasterDeps) => void;

export const nowSeconds = (chain: Chain): bigint => BigInt(Math.floor(chain.now() / 1000));

export const randomFelt128 = (): string => hex(BigInt(`0x${randomBytes(16).toString('hex')}`));

/** The root: `modules` registered in order on one method table, over one memory and one set of knobs. */
export function createRoot(
  options: { chain: Chain; apiKey?: string | undefined },
  modules: readonly PaymasterModule[],
): { methods: MethodTable; knobs: PaymasterKnobs; builds: () => number } {
  const { chain } = options;
  const methods: Record<string, Method> = {};
  const builds = new Map<string, Build>();
  /** tracking id → the hash of the transaction relayed for it (one per execute here: nothing is ever re-sent) */
  const tracked = new Map<string, bigint>();
  const knobs: PaymasterKnobs = { tamper: undefined, gasPricesAfterNextBuild: undefined };
  const deps: PaymasterDeps = {
    chain,
    apiKey: options.apiKey,
    knobs,
    builds: {
      remember(nonce, build) {
        const now = nowSeconds(chain);
        for (const [key, old] of builds) if (old.executeBefore <= now) builds.delete(key);
        while (builds.size >= MAX_BUILDS) builds.delete(builds.keys().next().value as string);
        builds.set(nonce, build);
      },
      get: (nonce) => builds.get(nonce),
      forget: (nonce) => void builds.delete(nonce),
    },
    tracking: {
      track(transactionHash) {
        const id = randomFelt128();
        while (tracked.size >= MAX_TRACKED) tracked.delete(tracked.keys().next().value as string);
        tracked.set(id, transactionHash);
        return id;
      },
      hashOf: (id) => tracked.get(id),
    },
  };
  const root: PaymasterRoot = {
    method(name, method) {
      if (Object.hasOwn(methods, name))
        throw new Error(`paymaster method ${name} registered twice`);
      methods[name] = method;
    },
  };
  for (const register of modules) register(root, deps);
  return { methods, knobs, builds: () => builds.size };
}
