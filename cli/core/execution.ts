/**
 * What every command that signs needs from the session (docs/architecture.md "Execution"): the
 * Starknet JSON-RPC URL for reads, the session's execution account (its signer posts to our
 * /sign/hash, its paymaster client to our /paymaster), and the paymaster build with the fee
 * choice — sponsored when the server offers it, else default mode paying gas in the gas token.
 * Shared by every action kind (actions/plan-action.ts builds, actions/execute.ts signs). The
 * chain library (starknet.js) is imported when a function runs, so commands that never sign stay
 * light.
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { Token } from '../../shared/tokens.js';
import { ensureAuthServer } from './auth-server.js';
import type { CallOptions } from './call.js';
import type {
  AccountFacts,
  ChainCall,
  ExecutionAccount,
  ChainReader,
  ExecutionProgress,
  ExecutionReceipt,
  ExpectedOutflow,
  FeeModeOption,
  PreparedExecution,
} from './chain/index.js';
import type { TransactionTracker } from './history.js';
import type { Endpoints } from './endpoints.js';
import { createSignHash, createSignTypedData, requireSession, type Session } from './session.js';

/** The JSON-RPC URL for reads: the sandbox's or the setting; else starknet.js's public node. */
/** A read-only chain reader of the session wallet on `endpoints` (staking, lending, positions). */
export async function sessionReader(
  endpoints: Endpoints,
  options: { now?: (() => number) | undefined } = {},
): Promise<{ session: Session; reader: ChainReader }> {
  const session = requireSession(endpoints, options.now ? { now: options.now } : {});
  const [{ createChainReader }, rpcUrl] = await Promise.all([
    import('./chain/index.js'),
    rpcUrlOf(endpoints),
  ]);
  return {
    session,
    reader: createChainReader({ address: session.address, rpcUrl, network: endpoints.network }),
  };
}

export async function rpcUrlOf(
  endpoints: Pick<Endpoints, 'rpcUrl' | 'sandbox' | 'network'>,
): Promise<string> {
  if (endpoints.rpcUrl !== undefined) return endpoints.rpcUrl;
  if (endpoints.sandbox) {
    throw new AppError(
      ErrorCode.CONFIG_ERROR,
      'the running sandbox has no chain (its sandbox.json names no rpcUrl): restart it with this version',
    );
  }
  const { logger, provider } = await import('starknet');
  logger.setLogLevel('OFF'); // getDefaultNodeUrl logs through console: the core never writes to a terminal
  return provider.getDefaultNodeUrl(endpoints.network === 'mainnet' ? 'SN_MAIN' : 'SN_SEPOLIA');
}

/** The session's account, ready to build, simulate, sign and send (the auth server is started when it is local and down). */
export async function openExecutionAccount(
  endpoints: Endpoints,
  session: Session,
  call: CallOptions = {},
): Promise<ExecutionAccount> {
  await ensureAuthServer(endpoints, call);
  const [chain, rpcUrl] = await Promise.all([import('./chain/index.js'), rpcUrlOf(endpoints)]);
  return chain.createExecutionAccount({
    address: session.address,
    publicKey: session.publicKey,
    rpcUrl,
    network: endpoints.network,
    paymasterUrl: `${endpoints.serverUrl.replace(/\/+$/, '')}/paymaster`,
    headers: { authorization: `Bearer ${session.token}` },
    // the server this run talks to, not the one the session was saved with: a sandbox restarted
    // on new ports keeps the session (docs/architecture.md "Session"), and signs where it is now
    signHash: createSignHash(session, { serverUrl: endpoints.serverUrl }),
    // an agent grant signs only typed data the server sees (docs/server-api.md "Agent grants")
    signTypedData:
      session.grantId === undefined
        ? undefined
        : createSignTypedData(session, { serverUrl: endpoints.serverUrl }),
    // the sandbox confirms at once: poll for the receipt often
    ...(endpoints.sandbox ? { pollIntervalMs: 200 } : {}),
  });
}

/** The chain library's execution stages as the core's typed progress events. */
function executionProgress(call: CallOptions): (event: ExecutionProgress) => void {
  return (event) => {
    const emit = call.onProgress;
    if (emit === undefined) return;
    switch (event.stage) {
      case 'checking-account':
        return emit({ kind: 'checking-account' });
      case 'building':
        return emit({ kind: 'building', deploy: event.deploy });
      case 'built':
        return undefined;
      case 'signing':
        return emit({ kind: 'signing' });
      case 'submitting':
        return emit({ kind: 'submitting' });
      case 'submitted':
        return emit({ kind: 'submitted', hash: event.transactionHash });
      case 'confirming':
        // one event, not one per poll
        return event.polls === 1
          ? emit({ kind: 'confirming', hash: event.transactionHash })
          : undefined;
      case 'confirmed':
        return emit({ kind: 'confirmed', hash: event.transactionHash, status: event.status });
    }
  };
}

/** Who pays the gas: sponsored when offered (unless `forced`), else `gasToken`. */
export interface FeeChoice {
  gasToken: Token;
  /** the user named the gas token: never ask for sponsorship */
  forced: boolean;
}

/**
 * Refusals of a sponsored build that mean "no sponsorship here", not "no such transaction": our
 * server's (off, or the user's daily allowance spent) and the paymaster's own (no operator key).
 */
const SPONSORSHIP_DECLINED: ReadonlySet<string> = new Set([
  ErrorCode.SPONSORED_DISABLED,
  ErrorCode.SPONSORED_LIMIT_REACHED,
  ErrorCode.PAYMASTER_REFUSED,
]);

/** SNIP-29 TRANSACTION_EXECUTION_ERROR: the calls themselves would fail, whoever pays the gas. */
const CALLS_WOULD_FAIL = 156;

/**
 * Whether a sponsored build's refusal means the build may be made again paying gas in a token:
 * a refusal of sponsorship, never the paymaster saying the calls would fail (156), which a
 * second build in the gas token would only meet again.
 */
export function sponsorshipDeclined(error: unknown): boolean {
  if (!(error instanceof AppError) || !SPONSORSHIP_DECLINED.has(error.code)) return false;
  return !(
    error.code === ErrorCode.PAYMASTER_REFUSED && error.details?.paymasterCode === CALLS_WOULD_FAIL
  );
}

/**
 * The paymaster build (nothing signed): sponsored first — when the paymaster or our server will
 * not sponsor, default mode in the gas token. `maxFee` refuses (FEE_ABOVE_MAX) a build whose
 * suggested maximum is above it. `sponsoredOnly` (a plan whose gas the person confirmed as
 * sponsored, built again): no default mode; the refusal is the caller's to handle.
 */
export async function prepareWithFee(
  account: ExecutionAccount,
  calls: readonly ChainCall[],
  fee: FeeChoice & { maxFee?: bigint | undefined; sponsoredOnly?: boolean | undefined },
  call: CallOptions,
): Promise<PreparedExecution> {
  const chain = await import('./chain/index.js');
  const base = {
    ...(call.signal ? { signal: call.signal } : {}),
    onProgress: executionProgress(call),
    ...(fee.maxFee === undefined ? {} : { maxFeeInGasToken: fee.maxFee }),
  };
  const inGasToken: FeeModeOption = { gasToken: fee.gasToken.address };
  if (fee.forced) return chain.prepareExecution(account, calls, { ...base, feeMode: inGasToken });
  let facts: AccountFacts | undefined;
  try {
    return await chain.prepareExecution(account, calls, {
      ...base,
      feeMode: 'sponsored',
      onFacts: (read) => (facts = read),
    });
  } catch (error) {
    if (fee.sponsoredOnly === true || !sponsorshipDeclined(error)) throw error;
    call.onProgress?.({ kind: 'fee-mode', gasToken: fee.gasToken.symbol });
    // the same account facts for the second build: read moments ago, for this plan
    return chain.prepareExecution(account, calls, {
      ...base,
      feeMode: inGasToken,
      ...(facts === undefined ? {} : { facts }),
    });
  }
}

/**
 * Signs and sends exactly `prepared`, waits for its receipt, and keeps the history in step: the
 * transaction is recorded when submitted, and a revert as such. The caller settles a success
 * (it knows what to record as received). `expected`, the plan's outflows, is what its receipt is
 * checked against (chain/outcome.ts): a receipt the chain contradicts is no outcome.
 */
export async function executeTracked(
  account: ExecutionAccount,
  prepared: PreparedExecution,
  tracker: TransactionTracker,
  call: CallOptions,
  expected: readonly ExpectedOutflow[] = [],
): Promise<ExecutionReceipt> {
  const chain = await import('./chain/index.js');
  const progress = executionProgress(call);
  try {
    return await chain.executePrepared(account, prepared, {
      ...(call.signal ? { signal: call.signal } : {}),
      expected,
      onProgress: (event) => {
        if (event.stage === 'submitted') tracker.submitted(event.transactionHash);
        progress(event);
      },
    });
  } catch (error) {
    await tracker.failed(error);
    throw error;
  }
}
