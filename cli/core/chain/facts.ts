/**
 * What the paymaster build needs to know about the account, read in one parallel step
 * (docs/execution.md "Round trips"): is it deployed (class hash), the chain id (starknet.js's
 * safety check), its nonce (the simulation's invoke) and, when deployed, its SNIP-9 version
 * (outside execution). Read one after another, as starknet.js would, they cost four round trips.
 * The five requests go as one JSON-RPC batch (views.ts `batchedRound`: one request and one
 * connection instead of five, docs/decisions.md "The account's facts in one batch"), each answer
 * checked here; a node that refuses batches is asked one request each, as the views are.
 *
 * `prefetchAccountFacts` starts the reads early (planAction: while the quote is fetched); the next
 * `takeAccountFacts` of that account uses them — once, and only while young — so the facts a
 * build is checked against are the ones read for that build, never an earlier plan's.
 */
import { constants, RpcError, type RpcProvider } from 'starknet';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { FELT_HEX, parseHexFelt } from '../../../shared/felt.js';
import type { ExecutionAccount } from './account.js';
import { mapChainError } from './errors.js';
import { inScope, record } from './scope.js';
import { batchedRound, viewsIn } from './views.js';

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

/** A felt the node sent where one belongs (0x-hex below the prime), else a garbled answer. */
function feltAnswer(value: unknown, what: string): bigint {
  const felt = typeof value === 'string' && FELT_HEX.test(value) ? parseHexFelt(value) : undefined;
  if (felt === undefined)
    throw record(
      new AppError(ErrorCode.CHAIN_ERROR, `the Starknet RPC answered a ${what} that is not a felt`),
    );
  return felt;
}

/** Inside a scope: the facts, read at once. A deployed account without SNIP-9 v1/v2 is ACCOUNT_UNSUPPORTED. */
async function readFacts(ea: ExecutionAccount): Promise<AccountFacts> {
  const round = batchedRound(ea);
  const at = { block_id: 'latest', contract_address: `0x${BigInt(ea.address).toString(16)}` };
  // deployed unless the node says 20 CONTRACT_NOT_FOUND (reads.ts accountDeployed's rule)
  const deployedRead = round({
    method: 'starknet_getClassHashAt',
    params: at,
    single: () => ea.provider.getClassHashAt(ea.address),
  }).then(
    (classHash) => (feltAnswer(classHash, 'class hash'), true),
    (error: unknown) => {
      if (error instanceof RpcError && error.code === 20) return false;
      throw error;
    },
  );
  const chainIdRead = round({
    method: 'starknet_chainId',
    params: {},
    single: () => ea.provider.getChainId(),
  });
  // the nonce read fails for an undeployed account: its answer is then not used
  const nonceRead = round({
    method: 'starknet_getNonce',
    params: at,
    single: () => ea.provider.getNonceForAddress(ea.address),
  }).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  // starknet.js's Account.getSnip9Version: its two SRC-5 questions (src5.supportsInterface, which
  // answers false on any failure, as here); asked of an undeployed account too, and then not used
  const views = viewsIn(ea, round);
  const supports = (id: string): Promise<boolean> =>
    views({
      contractAddress: ea.address,
      entrypoint: 'supports_interface',
      calldata: [`0x${BigInt(id).toString(16)}`],
    }).then(
      ([first]) => first !== undefined && first !== 0n,
      () => false,
    );
  const [deployed, chainId, nonce, v2, v1] = await Promise.all([
    deployedRead,
    chainIdRead,
    nonceRead,
    supports(constants.SNIP9_V2_INTERFACE_ID),
    supports(constants.SNIP9_V1_INTERFACE_ID),
  ]);
  feltAnswer(chainId, 'chain id');
  const checkedChainId = chainId as AccountFacts['chainId'];
  // as starknet.js's getChainId would have: its later questions of this provider reuse it
  ea.provider.channel.setChainId(checkedChainId);
  if (!deployed) return { deployed, chainId: checkedChainId, nonce: undefined };
  if (!nonce.ok) throw nonce.error;
  const accountNonce = feltAnswer(nonce.value, 'nonce');
  if (!v2 && !v1) {
    throw record(
      new AppError(
        ErrorCode.ACCOUNT_UNSUPPORTED,
        'this account does not support outside execution (SNIP-9), which the paymaster needs',
      ),
    );
  }
  return { deployed, chainId: checkedChainId, nonce: accountNonce };
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
