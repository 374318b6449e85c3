/**
 * What the paymaster build needs to know about the account, read in one parallel step
 * (docs/execution.md "Round trips"): is it deployed (class hash), the chain id (starknet.js's
 * safety check), its nonce (the simulation's invoke) and, when deployed, its SNIP-9 version
 * (outside execution). Read one after another, as starknet.js would, they cost four round trips.
 *
 * `prefetchAccountFacts` starts the reads early (planAction: while the quote is fetched); the next
 * `takeAccountFacts` of that account uses them — once, and only while young — so the facts a
 * build is checked against are the ones read for that build, never an earlier plan's.
 */
import { constants, type RpcProvider, src5 } from 'starknet';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { ExecutionAccount } from './account.js';
import { mapChainError } from './errors.js';
import { accountDeployed } from './reads.js';
import { inScope, record } from './scope.js';

export interface AccountFacts {
  deployed: boolean;
  /** the RPC's chain id (cached by starknet.js for the account's provider) */
  chainId: Awaited<ReturnType<RpcProvider['getChainId']>>;
  /** the account's nonce; undefined when not deployed */
  nonce: bigint | undefined;
}

/** A prefetch older than this is read again: the facts of a build are never older than a quote. */
export const FACTS_MAX_AGE_MS = 10_000;

const prefetched = new WeakMap<ExecutionAccount, { at: number; facts: Promise<AccountFacts> }>();

/** Inside a scope: the facts, read at once. A deployed account without SNIP-9 v1/v2 is ACCOUNT_UNSUPPORTED. */
async function readFacts(ea: ExecutionAccount): Promise<AccountFacts> {
  // the nonce read fails for an undeployed account: its answer is then not used
  const nonceRead = ea.provider.getNonceForAddress(ea.address).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  // starknet.js's Account.getSnip9Version, its two SRC-5 questions asked at once (each answers
  // false on any failure, as there); asked of an undeployed account too, and then not used
  const supports = (id: string): Promise<boolean> =>
    src5.supportsInterface(ea.provider, ea.address, id);
  const [deployed, chainId, nonce, v2, v1] = await Promise.all([
    accountDeployed(ea),
    ea.provider.getChainId(),
    nonceRead,
    supports(constants.SNIP9_V2_INTERFACE_ID),
    supports(constants.SNIP9_V1_INTERFACE_ID),
  ]);
  if (!deployed) return { deployed, chainId, nonce: undefined };
  if (!nonce.ok) throw nonce.error;
  if (!v2 && !v1) {
    throw record(
      new AppError(
        ErrorCode.ACCOUNT_UNSUPPORTED,
        'this account does not support outside execution (SNIP-9), which the paymaster needs',
      ),
    );
  }
  return { deployed, chainId, nonce: BigInt(nonce.value) };
}

/** Starts reading the account's facts for the next build; errors surface where they are taken. */
export function prefetchAccountFacts(ea: ExecutionAccount, signal?: AbortSignal): void {
  const facts = inScope(signal, () => readFacts(ea), mapChainError);
  // taken later (or never, when the quote fails first): never an unhandled rejection
  facts.catch(() => undefined);
  prefetched.set(ea, { at: Date.now(), facts });
}

/** Inside a scope: the prefetched facts when young enough (used once), else read now. */
export async function takeAccountFacts(ea: ExecutionAccount): Promise<AccountFacts> {
  const entry = prefetched.get(ea);
  prefetched.delete(ea);
  if (entry !== undefined && Date.now() - entry.at <= FACTS_MAX_AGE_MS) return entry.facts;
  return readFacts(ea);
}
