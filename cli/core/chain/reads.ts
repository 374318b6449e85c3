/**
 * Reads: balances of registry tokens, whether the account is deployed, and the ArgentX v0.5.0
 * deployment data of an account that is not (docs/execution.md "Addresses and deployment data").
 */
import { RpcError } from 'starknet';
import { fromU256 } from '../../../shared/erc20.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import {
  ARGENT_X_V050_CLASS_HASH,
  argentAccountAddress,
  argentAccountConstructorCalldata,
  padHash,
} from '../../../shared/starknet.js';
import { listTokens, type Token } from '../../../shared/tokens.js';
import type { ChainReader } from './account.js';
import { mapChainError } from './errors.js';
import { inScope } from './scope.js';
import { batchedViews, feltsOf, type Viewer } from './views.js';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface TokenBalance {
  token: Token;
  /** exact base units */
  balance: bigint;
}

/** What a paymaster deploy_and_invoke carries (sent as is). */
export interface AccountDeploymentData {
  address: string;
  class_hash: string;
  salt: string;
  calldata: string[];
  version: 1;
}

export function deploymentData(publicKey: string): AccountDeploymentData {
  const pubkey = padHash(publicKey);
  return {
    address: argentAccountAddress(pubkey),
    class_hash: ARGENT_X_V050_CLASS_HASH,
    salt: pubkey,
    // CallData compiles to decimal strings; the paymaster takes hex
    calldata: argentAccountConstructorCalldata(pubkey).map(
      (felt) => `0x${BigInt(felt).toString(16)}`,
    ),
    version: 1,
  };
}

/** Inside a scope: is the reader's account deployed? (RPC error 20 CONTRACT_NOT_FOUND = no.) */
export async function accountDeployed(reader: ChainReader): Promise<boolean> {
  try {
    await reader.provider.getClassHashAt(reader.address);
    return true;
  } catch (error) {
    if (error instanceof RpcError && error.code === 20) return false;
    throw error;
  }
}

export async function isDeployed(reader: ChainReader, options: CallOptions = {}): Promise<boolean> {
  return inScope(options.signal, () => accountDeployed(reader), mapChainError);
}

/**
 * Balances of `tokens` (default: every registry token of the reader's network), read in parallel
 * with `balance_of`, in the order given. A balance that is not a u256 is CHAIN_ERROR.
 */
export async function readBalances(
  reader: ChainReader,
  options: CallOptions & {
    tokens?: readonly Token[];
    /** a round the caller shares with its other reads (views.ts); else one of its own */
    views?: Viewer;
  } = {},
): Promise<TokenBalance[]> {
  const tokens = options.tokens ?? listTokens(reader.network);
  return inScope(
    options.signal,
    () => {
      // one round, sent as JSON-RPC batches (views.ts): one request for the whole registry
      const view = options.views ?? batchedViews(reader);
      return Promise.all(
        tokens.map(async (token) => {
          const result = await view({
            contractAddress: token.address,
            entrypoint: 'balance_of',
            calldata: [reader.address],
          });
          const balance =
            result.length === 2 ? fromU256(result[0] as bigint, result[1] as bigint) : undefined;
          if (balance === undefined)
            throw new AppError(
              ErrorCode.CHAIN_ERROR,
              `the ${token.symbol} contract returned a balance that is not a u256`,
            );
          return { token, balance };
        }),
      );
    },
    mapChainError,
  );
}

/**
 * Whether `account` may still use the outside-execution (SNIP-9) `nonce`: false once an execution
 * with it succeeded (a revert undoes it). An account never deployed has used none. The one read of
 * it, for the check of a receipt (execute.ts, outcome.ts) and the history's settling
 * (../reconcile.ts); `views` puts it in the caller's round (views.ts), else it is asked alone.
 */
export async function outsideNonceAvailable(
  reader: ChainReader,
  account: string,
  nonce: string,
  views?: Viewer,
): Promise<boolean> {
  try {
    const call = {
      contractAddress: account,
      entrypoint: 'is_valid_outside_execution_nonce',
      calldata: [nonce],
    };
    const value = (
      views !== undefined
        ? await views(call)
        : feltsOf(await reader.provider.callContract(call, 'latest'))
    )[0];
    if (value === undefined || value > 1n)
      throw new AppError(
        ErrorCode.CHAIN_ERROR,
        'is_valid_outside_execution_nonce answered no boolean',
      );
    return value === 1n;
  } catch (error) {
    // 20 CONTRACT_NOT_FOUND: an account that was never deployed used no nonce
    if (error instanceof RpcError && error.code === 20) return true;
    throw error;
  }
}
