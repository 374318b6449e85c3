/**
 * The execution account: a starknet.js Account whose signer is our RemoteSigner, an RpcProvider
 * on the Starknet JSON-RPC URL, and a PaymasterRpc on our server's /paymaster carrying the session
 * token (docs/architecture.md "Execution"). Both talk through `scopedFetch`, so every request is
 * cancellable, bounded in time and size, and fails with our error codes.
 *
 * starknet.js logs through console (stdout): its logger is switched OFF here, since a core
 * function must never write to stdout or stderr.
 */
import { Account, logger, PaymasterRpc, RpcProvider } from 'starknet';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { argentAccountAddress, padHash } from '../../../shared/starknet.js';
import type { Network } from '../../../shared/tokens.js';
import { privateServiceUrlProblem } from '../../../shared/url.js';
import { parseAddress } from '../../../shared/tokens.js';
import { type FetchLike, scopedFetch } from './fetch.js';
import { RemoteSigner, type SignHash, type SignTypedData } from './signer.js';

export interface ChainReaderOptions {
  /** the wallet's account address */
  address: string;
  /** Starknet JSON-RPC URL (the sandbox's `rpcUrl`) */
  rpcUrl: string;
  /** whose token registry `readBalances` uses; the sandbox is mainnet-like. Default mainnet. */
  network?: Network;
  /** the client's HTTP layer (defaults to global fetch) */
  baseFetch?: FetchLike;
  /** per request; default 15 s */
  requestTimeoutMs?: number;
  /** between receipt polls; default 1000 ms (the sandbox confirms at once: pass ~50) */
  pollIntervalMs?: number;
  /** how long to wait for a receipt before TRANSACTION_PENDING; default 180 s */
  confirmTimeoutMs?: number;
}

export interface ExecutionAccountOptions extends ChainReaderOptions {
  /** the wallet's Stark public key; the address must be its ArgentX v0.5.0 address */
  publicKey: string;
  /** `<serverUrl>/paymaster` */
  paymasterUrl: string;
  /** sent with every paymaster request, e.g. `{authorization: 'Bearer <token>'}` */
  headers: Record<string, string>;
  signHash: SignHash;
  /** an agent grant: typed data is signed by the server seeing it (signer.ts) */
  signTypedData?: SignTypedData | undefined;
}

export interface ChainReader {
  /** 0x + 64 lower-case hex */
  readonly address: string;
  readonly network: Network;
  readonly provider: RpcProvider;
  readonly pollIntervalMs: number;
  readonly confirmTimeoutMs: number;
  /**
   * POSTs a JSON-RPC batch to the node through the same bounded fetch as the provider and returns
   * the parsed answer (views.ts sends its rounds so); absent on a reader that cannot batch
   */
  readonly sendBatch?: (requests: readonly unknown[]) => Promise<unknown>;
}

export interface ExecutionAccount extends ChainReader {
  readonly publicKey: string;
  readonly account: Account;
  readonly signer: RemoteSigner;
  /** replaces the headers of every later paymaster request (a refreshed session token) */
  setPaymasterHeaders(headers: Record<string, string>): void;
}

/** Far above any answer the flow needs (a simulation trace is a few hundred KB at most). */
const MAX_RESPONSE_BYTES = 4 * 1_048_576;

function httpUrl(value: string, name: string): string {
  const problem = privateServiceUrlProblem(value, name);
  if (problem === undefined) return value;
  throw new AppError(ErrorCode.CONFIG_ERROR, problem);
}

export function createChainReader(options: ChainReaderOptions): ChainReader {
  logger.setLogLevel('OFF');
  const address = parseAddress(options.address, 'account address');
  const timeoutMs = options.requestTimeoutMs ?? 15_000;
  const nodeUrl = httpUrl(options.rpcUrl, 'rpcUrl');
  const chainFetch = scopedFetch({
    service: 'chain',
    timeoutMs,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    ...(options.baseFetch === undefined ? {} : { baseFetch: options.baseFetch }),
  });
  const provider = new RpcProvider({ nodeUrl, baseFetch: chainFetch });
  return {
    address,
    network: options.network ?? 'mainnet',
    provider,
    sendBatch: async (requests) =>
      (
        await chainFetch(nodeUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(requests),
        })
      ).json(),
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    confirmTimeoutMs: options.confirmTimeoutMs ?? 180_000,
  };
}

export function createExecutionAccount(options: ExecutionAccountOptions): ExecutionAccount {
  const reader = createChainReader(options);
  const publicKey = padHash(options.publicKey);
  // a session whose address is not its key's account would sign for an account it cannot deploy
  if (BigInt(argentAccountAddress(publicKey)) !== BigInt(reader.address)) {
    throw new AppError(
      ErrorCode.INVALID_ADDRESS,
      'the wallet address is not the ArgentX account of its public key: sign in again',
    );
  }
  const timeoutMs = options.requestTimeoutMs ?? 15_000;
  const paymaster = new PaymasterRpc({
    nodeUrl: httpUrl(options.paymasterUrl, 'paymasterUrl'),
    headers: { ...options.headers },
    baseFetch: scopedFetch({
      service: 'server',
      timeoutMs,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      ...(options.baseFetch === undefined ? {} : { baseFetch: options.baseFetch }),
    }),
  });
  const signer = new RemoteSigner(publicKey, options.signHash, options.signTypedData);
  const account = new Account({
    provider: reader.provider,
    address: reader.address,
    signer,
    paymaster,
    cairoVersion: '1',
    plugins: false,
  });
  return {
    ...reader,
    publicKey,
    account,
    signer,
    setPaymasterHeaders(headers) {
      // Account copies the PaymasterRpc it is given: its own copy is the one that sends
      (account.paymaster as PaymasterRpc).headers = {
        'Content-Type': 'application/json',
        ...headers,
      };
    },
  };
}
