/**
 * `<data>/sandbox.json`: where a running sandbox publishes its URLs and pid. `finance-tui sandbox`
 * writes it and removes it on its way out; the command that started a sandbox as its child
 * removes it again once the child has exited; cli/core/endpoints.ts finds the sandbox through
 * it. Read, written and removed the one way (store.ts: atomic, 0600, under the file's lock).
 */
import * as Type from 'typebox';
import type { Static } from 'typebox';
import type { Network } from '../../shared/tokens.js';
import { isPrivateServiceUrl } from '../../shared/url.js';
import { schemaCheck } from '../clients/schema-check.js';
import { readStore, removeStore, storedProblem, writeStore } from './store.js';

const SandboxState = Type.Object({
  serverUrl: Type.String(),
  identityUrl: Type.String(),
  aggregatorUrl: Type.String(),
  rpcUrl: Type.Optional(Type.String()),
  paymasterUrl: Type.Optional(Type.String()),
  /** the sandbox's process */
  pid: Type.Optional(Type.Integer({ minimum: 1 })),
  /** the chain's identity: a restarted sandbox is a new chain (cli/core/reconcile.ts) */
  chainInstance: Type.Optional(Type.String({ pattern: '^[0-9a-z-]{1,64}$' })),
  /**
   * the network the sandbox is shaped like (`sandbox --network`): the one place a --sandbox
   * command learns which network's rules, registry and deployments hold (cli/core/endpoints.ts).
   * Absent (a sandbox of an older version): mainnet, the only shape there was.
   */
  network: Type.Optional(Type.Union([Type.Literal('mainnet'), Type.Literal('sepolia')])),
});
export type SandboxState = Static<typeof SandboxState>;
// generated when the bin is built (scripts/bundle-plugins.mjs standaloneChecks)
const SandboxStateCheck = schemaCheck(SandboxState);
// the schema's literals are shared/tokens.ts NETWORKS: a network added there fails to compile here
const _networks: Network extends NonNullable<SandboxState['network']> ? true : never = true;
void _networks;

const storeName = (env: NodeJS.ProcessEnv) => ({
  env,
  configName: 'sandbox',
  what: 'sandbox state',
});

const URL_KEYS = ['serverUrl', 'identityUrl', 'aggregatorUrl', 'rpcUrl', 'paymasterUrl'] as const;

/**
 * `value` when it is a sandbox's state (its ready line, its file), else undefined. Its URLs pass
 * the client's one URL rule (shared/url.ts: https, or http to this machine only).
 */
export function sandboxState(value: unknown): SandboxState | undefined {
  if (storedProblem(SandboxStateCheck, value) !== undefined) return undefined;
  const state = value as SandboxState;
  const urls = URL_KEYS.map((key) => state[key]).filter((u): u is string => u !== undefined);
  return urls.every(isPrivateServiceUrl) ? state : undefined;
}

/** The data folder's sandbox state; absent, unreadable or not a sandbox's: none known. */
export function readSandboxState(env: NodeJS.ProcessEnv): SandboxState | undefined {
  try {
    return sandboxState(readStore(storeName(env)));
  } catch {
    return undefined;
  }
}

export async function writeSandboxState(
  env: NodeJS.ProcessEnv,
  state: SandboxState & object,
): Promise<void> {
  await writeStore(storeName(env), state);
}

/**
 * Remove the sandbox state if it still names `pid` (another sandbox may have replaced it
 * since), so a sandbox that died or had to be killed leaves no file naming it.
 */
export async function removeSandboxState(
  env: NodeJS.ProcessEnv,
  pid: number | undefined,
): Promise<void> {
  // no pid to match (a child that never started): whatever is there is not known to be ours
  if (pid === undefined) return;
  try {
    await removeStore(storeName(env), (current) => current?.pid !== pid);
  } catch {
    // locked past the wait: readers check the pid (endpoints.ts sandboxAlive)
  }
}
