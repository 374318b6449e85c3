/**
 * Executing calls through the paymaster (docs/execution.md "PaymasterRpc"), in two steps a UI can
 * put a confirmation between:
 *
 * 1. `prepareExecution`: the account's facts (facts.ts: deployed? — an undeployed account's
 *    first transaction is deploy_and_invoke — chain id, nonce, SNIP-9) → paymaster build →
 *    starknet.js's own safety check (the typed data's calls are exactly ours, plus in default
 *    mode exactly one last gas-token transfer of the suggested maximum, at most
 *    `maxFeeInGasToken`) → our checks on what starknet.js leaves
 *    unchecked: the typed-data types are the standard SNIP-9 ones (so hashing them is bounded) and
 *    a deployment is exactly our account's. Nothing is signed.
 * 2. `executePrepared`: sign (the only signature: the typed data's message hash) → execute → wait
 *    for the receipt → plain data. A REVERTED receipt is TRANSACTION_REVERTED, the receipt in its
 *    details.
 *
 * `executeCalls` is both in one go. The build is done once: what is checked is what is signed.
 * The receipt wait is our own poll loop (starknet.js's waitForTransaction cannot be cancelled and
 * retries for minutes on a dead endpoint).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  OutsideExecutionTypesV2,
  paymaster,
  type PaymasterDetails,
  type PreparedTransaction,
  RpcError,
} from 'starknet';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { Erc20Transfer } from '../../../shared/erc20.js';
import { feltHex, parseHexFelt } from '../../../shared/felt.js';
import { sameAddress } from '../../../shared/tokens.js';
import type { ExecutionAccount } from './account.js';
import type { ChainCall } from './calls.js';
import { mapChainError } from './errors.js';
import { messageHashOf } from './message-hash.js';
import { type AccountFacts, takeAccountFacts } from './facts.js';
import { deploymentData, outsideNonceAvailable, readBalances } from './reads.js';
import { currentSignal, inScope, record } from './scope.js';
import { batchedRound, viewsIn } from './views.js';
import { receiptOutcome } from './receipt.js';
import { type BalanceEvidence, judgeOutcome, type OutflowExpectation } from './outcome.js';
import type { Token } from '../../../shared/tokens.js';
import { type BalanceChange, type FeeParty, summarizeTransfers } from './transfers.js';
import { printable } from '../../../shared/printable.js';

/** Sponsored (the operator pays) or default mode paying gas in `gasToken` (an address). */
export type FeeModeOption = 'sponsored' | { gasToken: string };

export type ExecutionProgress =
  | { stage: 'checking-account' }
  | { stage: 'building'; deploy: boolean }
  | { stage: 'built'; fee: PreparedFee }
  | { stage: 'signing' }
  | { stage: 'submitting' }
  | { stage: 'submitted'; transactionHash: string }
  | { stage: 'confirming'; transactionHash: string; polls: number }
  | { stage: 'confirmed'; transactionHash: string; status: 'SUCCEEDED' | 'REVERTED' };

export interface ProgressOptions {
  signal?: AbortSignal;
  onProgress?: (event: ExecutionProgress) => void;
}

/** What leaves the account in one token when the plan executes (outcome.ts checks the balance against it). */
export interface ExpectedOutflow {
  token: Token;
  /** what leaves for certain */
  exact: bigint;
  /** the most that may leave ("all" of a position: its bound) */
  bound: bigint;
}

export interface ExecuteOptions extends ProgressOptions {
  /**
   * the plan's outflows per token, for the check of its receipt against the balances (outcome.ts);
   * a token the plan also receives is left out by the caller
   */
  expected?: readonly ExpectedOutflow[];
}

export interface PrepareOptions extends ProgressOptions {
  feeMode: FeeModeOption;
  /** refuse (FEE_ABOVE_MAX) a build whose suggested maximum is above this, in gas-token base units */
  maxFeeInGasToken?: bigint;
  /** the account's facts for this build (takeAccountFacts); default: taken now */
  facts?: AccountFacts;
  /** told the facts the build used (a fallback build may reuse them) */
  onFacts?: (facts: AccountFacts) => void;
}

export type PreparedFee =
  | { mode: 'sponsored'; estimatedInStrk: bigint }
  | {
      mode: 'default';
      gasToken: string;
      /** what the paymaster expects to charge */
      estimatedInGasToken: bigint;
      /** what the account signs away at most (the appended transfer); the rest is refunded */
      maxInGasToken: bigint;
      estimatedInStrk: bigint;
      maxInStrk: bigint;
      gasTokenPriceInStrk: bigint;
    };

export interface OutsideCallData {
  to: string;
  selector: string;
  calldata: string[];
}

export interface PreparedExecution {
  kind: 'invoke' | 'deploy_and_invoke';
  /** the account, 0x + 64 hex */
  account: string;
  /** the user's calls, as asked */
  calls: ChainCall[];
  fee: PreparedFee;
  /** every call the signed typed data carries: the user's, then (default mode) the fee transfer */
  outsideCalls: OutsideCallData[];
  /** who the fee transfer pays (the paymaster's forwarder); undefined when sponsored */
  feeRecipient: string | undefined;
  /** unix seconds after which the paymaster refuses to execute it */
  expiresAt: number;
  /** the account's nonce, read with the deployed check this build relied on (undefined: not deployed) */
  accountNonce: bigint | undefined;
  /** starknet.js's prepared transaction and details, handed back to executePrepared */
  readonly transaction: PreparedTransaction;
  readonly details: PaymasterDetails;
}

export interface ExecutionReceipt {
  transactionHash: string;
  status: 'SUCCEEDED' | 'REVERTED';
  revertReason: string | null;
  /** this transaction deployed the account (a deploy_and_invoke that succeeded) */
  deployed: boolean;
  blockNumber: number | null;
  /** the network fee of the transaction, paid by its sender (the paymaster's relayer) */
  actualFee: { amount: bigint; unit: string };
  /** what the account paid the paymaster, net of refunds; null when sponsored */
  feePaid: { token: string; amount: bigint } | null;
  /** registry-token transfers to or from the account, fee transfers included */
  transfers: Erc20Transfer[];
  /** net per token, the fee excluded */
  balanceChanges: BalanceChange[];
}

const toStarknetCalls = (calls: readonly ChainCall[]) =>
  calls.map((call) => ({
    contractAddress: call.contractAddress,
    entrypoint: call.entrypoint,
    calldata: [...call.calldata],
  }));

const tampered = (detail: string): AppError =>
  new AppError(
    ErrorCode.TAMPERED_TRANSACTION,
    `the paymaster's transaction is not the one asked for (${detail}); nothing was signed`,
  );

const feeAboveMax = (max: bigint | undefined): AppError =>
  new AppError(
    ErrorCode.FEE_ABOVE_MAX,
    `the paymaster's maximum fee is above the ${String(max)} base units you accepted; nothing was signed`,
  );

const TYPES_V2 = JSON.stringify(OutsideExecutionTypesV2);

const typedDataOf = (prepared: PreparedTransaction): Record<string, unknown> =>
  ('typed_data' in prepared ? prepared.typed_data : {}) as unknown as Record<string, unknown>;

function checkTypedData(prepared: PreparedTransaction): void {
  if (prepared.type !== 'invoke' && prepared.type !== 'deploy_and_invoke')
    throw tampered(`type ${String(prepared.type)}`);
  const typed = typedDataOf(prepared);
  // the standard SNIP-9 v2 types: hashing them costs a fixed, small amount, whatever the message
  if (JSON.stringify(typed.types) !== TYPES_V2 || typed.primaryType !== 'OutsideExecution')
    throw tampered('not SNIP-9 v2 outside-execution typed data');
  const domain = typed.domain as Record<string, unknown> | undefined;
  if (domain?.name !== 'Account.execute_from_outside' || String(domain?.version) !== '2')
    throw tampered('not an outside-execution domain');
}

function checkDeployment(
  prepared: PreparedTransaction,
  expected: ReturnType<typeof deploymentData> | undefined,
): void {
  if (expected === undefined) {
    if (prepared.type !== 'invoke') throw tampered(`a ${prepared.type} for a deployed account`);
    return;
  }
  if (prepared.type !== 'deploy_and_invoke')
    throw tampered('no deployment for an undeployed account');
  const given = prepared.deployment as unknown as Record<string, unknown>;
  const felts = (value: unknown): string =>
    Array.isArray(value) ? value.map((v) => BigInt(String(v)).toString(16)).join(',') : 'x';
  const same =
    sameAddress(String(given.address), expected.address) &&
    sameAddress(String(given.class_hash), expected.class_hash) &&
    sameAddress(String(given.salt), expected.salt) &&
    felts(given.calldata) === felts(expected.calldata) &&
    Number(given.version) === 1;
  if (!same) throw tampered('the deployment is not this account');
}

function outsideCalls(prepared: PreparedTransaction): OutsideCallData[] {
  const message = (
    typedDataOf(prepared) as {
      message: { Calls: Array<{ To: string; Selector: string; Calldata: string[] }> };
    }
  ).message;
  return message.Calls.map((call) => ({
    to: call.To,
    selector: call.Selector,
    calldata: call.Calldata.map(String),
  }));
}

export async function prepareExecution(
  ea: ExecutionAccount,
  calls: readonly ChainCall[],
  options: PrepareOptions,
): Promise<PreparedExecution> {
  if (calls.length === 0) throw new AppError(ErrorCode.USAGE_ERROR, 'nothing to execute: no calls');
  return inScope(
    options.signal,
    async () => {
      options.onProgress?.({ stage: 'checking-account' });
      // deployed, chain id, nonce and SNIP-9 support, read at once (or prefetched: facts.ts)
      const facts = options.facts ?? (await takeAccountFacts(ea));
      options.onFacts?.(facts);
      const deployment = facts.deployed ? undefined : deploymentData(ea.publicKey);
      const details: PaymasterDetails = {
        feeMode:
          options.feeMode === 'sponsored'
            ? { mode: 'sponsored' }
            : { mode: 'default', gasToken: options.feeMode.gasToken },
        ...(deployment === undefined ? {} : { deploymentData: deployment }),
      };
      options.onProgress?.({ stage: 'building', deploy: deployment !== undefined });
      const starknetCalls = toStarknetCalls(calls);
      // what starknet.js's Account.buildPaymasterTransaction sends, without its own SNIP-9
      // questions (asked already, in parallel, by the facts)
      const transaction: PreparedTransaction = await ea.account.paymaster.buildTransaction(
        deployment === undefined
          ? { type: 'invoke', invoke: { userAddress: ea.address, calls: starknetCalls } }
          : {
              type: 'deploy_and_invoke',
              invoke: { userAddress: ea.address, calls: starknetCalls },
              deployment,
            },
        { version: '0x1', feeMode: details.feeMode },
      );
      try {
        paymaster.assertPaymasterTransactionSafety(
          transaction,
          starknetCalls,
          details,
          facts.chainId,
          options.maxFeeInGasToken,
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (message.includes('Gas token price is too high'))
          throw record(feeAboveMax(options.maxFeeInGasToken));
        // the paymaster's values are quoted in it: made printable where they enter
        throw record(tampered(printable(message, 300)));
      }
      // the cap is held here too: starknet.js holds only one that is truthy, and 0 is a cap
      if (
        details.feeMode.mode === 'default' &&
        options.maxFeeInGasToken !== undefined &&
        BigInt(transaction.fee.suggested_max_fee_in_gas_token) > options.maxFeeInGasToken
      )
        throw record(feeAboveMax(options.maxFeeInGasToken));
      checkTypedData(transaction);
      checkDeployment(transaction, deployment);
      const fee = transaction.fee;
      const prepared: PreparedExecution = {
        kind: transaction.type as 'invoke' | 'deploy_and_invoke',
        account: ea.address,
        calls: calls.map((call) => ({ ...call, calldata: [...call.calldata] })),
        fee:
          options.feeMode === 'sponsored'
            ? { mode: 'sponsored', estimatedInStrk: BigInt(fee.estimated_fee_in_strk) }
            : {
                mode: 'default',
                gasToken: options.feeMode.gasToken,
                estimatedInGasToken: BigInt(fee.estimated_fee_in_gas_token),
                maxInGasToken: BigInt(fee.suggested_max_fee_in_gas_token),
                estimatedInStrk: BigInt(fee.estimated_fee_in_strk),
                maxInStrk: BigInt(fee.suggested_max_fee_in_strk),
                gasTokenPriceInStrk: BigInt(fee.gas_token_price_in_strk),
              },
        outsideCalls: outsideCalls(transaction),
        feeRecipient: undefined,
        expiresAt: Number(
          BigInt(
            String(
              (typedDataOf(transaction) as { message: Record<string, unknown> }).message[
                'Execute Before'
              ],
            ),
          ),
        ),
        accountNonce: facts.nonce,
        transaction,
        details,
      };
      if (prepared.fee.mode === 'default')
        prepared.feeRecipient = feltHex(BigInt(prepared.outsideCalls.at(-1)?.calldata[0] ?? '0'));
      options.onProgress?.({ stage: 'built', fee: prepared.fee });
      return prepared;
    },
    mapChainError,
  );
}

/** JSON-safe copy of a receipt (bigints as decimal strings), for error details and --json. */
export function receiptToJson(receipt: ExecutionReceipt): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(receipt, (_key, value: unknown) =>
      typeof value === 'bigint' ? value.toString() : value,
    ),
  ) as Record<string, unknown>;
}

/** A revert reason is kept to this many characters (the history holds up to 1000). */
export const REVERT_REASON_MAX = 1000;

interface RawReceipt {
  transaction_hash?: string;
  execution_status?: unknown;
  revert_reason?: string;
  block_number?: number;
  actual_fee?: { amount?: string; unit?: string };
  events?: Array<{ from_address?: string; keys: string[]; data: string[] }>;
}

/** Who the account pays its fee to, in which token (default mode), so the fee is told apart. */
function feePartyOf(prepared: PreparedExecution): FeeParty | undefined {
  return prepared.fee.mode === 'default' && prepared.feeRecipient !== undefined
    ? { recipient: prepared.feeRecipient, gasToken: prepared.fee.gasToken }
    : undefined;
}

/**
 * The receipt of `submitted` (the hash the paymaster answered with; the receipt's own field is
 * never what is recorded) as plain data. Only a receipt that receipt.ts reads as SUCCEEDED or
 * REVERTED becomes one; anything else is TRANSACTION_PENDING: how it ended is not known.
 */
export function toExecutionReceipt(
  raw: RawReceipt,
  prepared: PreparedExecution,
  network: ExecutionAccount['network'],
  submitted: string = String(raw.transaction_hash ?? ''),
): ExecutionReceipt {
  const feeParty = feePartyOf(prepared);
  const hash = feltHex(parseHexFelt(submitted) ?? 0n);
  const verdict = receiptOutcome(raw, hash, { account: prepared.account, network, fee: feeParty });
  if (verdict.outcome === 'unknown') {
    throw new AppError(
      ErrorCode.TRANSACTION_PENDING,
      `transaction ${hash} was submitted, but the chain's answer does not say how it ended (${verdict.problem})`,
      { details: { transactionHash: hash, receiptProblem: verdict.problem } },
    );
  }
  const status = verdict.outcome === 'reverted' ? 'REVERTED' : 'SUCCEEDED';
  const summary = summarizeTransfers(
    (raw.events ?? []).map((event) => ({ event })),
    prepared.account,
    network,
    feeParty,
  );
  return {
    transactionHash: hash,
    status,
    // the chain's words, made printable where they enter (shared/printable.ts)
    revertReason:
      status === 'REVERTED'
        ? printable(raw.revert_reason ?? '', REVERT_REASON_MAX) || 'reverted (no reason given)'
        : null,
    deployed: status === 'SUCCEEDED' && prepared.kind === 'deploy_and_invoke',
    blockNumber: typeof raw.block_number === 'number' ? raw.block_number : null,
    actualFee: {
      amount: BigInt(raw.actual_fee?.amount ?? '0'),
      unit: raw.actual_fee?.unit ?? 'FRI',
    },
    feePaid:
      feeParty === undefined
        ? null
        : {
            token: feltHex(BigInt(feeParty.gasToken)),
            amount: summary.feePaid,
          },
    transfers: summary.transfers,
    balanceChanges: summary.balanceChanges,
  };
}

const ACCEPTED = new Set(['ACCEPTED_ON_L2', 'ACCEPTED_ON_L1']);

/** 29 TXN_HASH_NOT_FOUND: the node has not seen the transaction yet. */
const notSeenYet = (error: unknown): boolean => error instanceof RpcError && error.code === 29;

/**
 * Polls the receipt until accepted. Inside a scope. The first question goes at once (the
 * paymaster answers once it relayed the transaction; a fast chain, as the sandbox's, has it
 * accepted already), later ones every pollIntervalMs. One request a poll while the node has a
 * receipt; without one, the status too, which is where a rejected transaction shows.
 */
async function waitForReceipt(
  ea: ExecutionAccount,
  transactionHash: string,
  onProgress: PrepareOptions['onProgress'],
): Promise<RawReceipt> {
  const deadline = Date.now() + ea.confirmTimeoutMs;
  for (let polls = 1; ; polls += 1) {
    if (polls > 1) await sleep(ea.pollIntervalMs, undefined, { signal: currentSignal() });
    onProgress?.({ stage: 'confirming', transactionHash, polls });
    let receipt: (RawReceipt & { finality_status?: string }) | undefined;
    try {
      receipt = (await ea.provider.channel.getTransactionReceipt(
        transactionHash,
      )) as unknown as RawReceipt & { finality_status?: string };
    } catch (error) {
      if (!notSeenYet(error)) throw error;
    }
    if (receipt !== undefined && ACCEPTED.has(receipt.finality_status ?? '')) return receipt;
    if (receipt === undefined) {
      try {
        const status = (await ea.provider.getTransactionStatus(transactionHash)) as {
          finality_status?: string;
        };
        if (status.finality_status === 'REJECTED')
          throw new AppError(ErrorCode.CHAIN_ERROR, 'the transaction was rejected by the network');
      } catch (error) {
        if (!notSeenYet(error)) throw error;
      }
    }
    if (Date.now() >= deadline) {
      throw new AppError(
        ErrorCode.TRANSACTION_PENDING,
        `transaction ${transactionHash} was submitted but not confirmed within ${Math.round(ea.confirmTimeoutMs / 1000)} s`,
        { details: { transactionHash } },
      );
    }
  }
}

/** What identifies a signed outside execution (SNIP-9) when its hash is not known: its nonce, its message hash, its deadline. */
interface OutsideIdentity {
  /** 0x + 64 hex: the account's `is_valid_outside_execution_nonce(nonce)` turns false once it executed */
  nonce: string;
  /** 0x + 64 hex: the typed-data message hash that was signed */
  messageHash: string;
  /** unix seconds: after it, the outside execution can never run */
  executeBefore: number;
}

const felt64 = (value: unknown): string => feltHex(BigInt(String(value)));

export function outsideIdentity(prepared: PreparedExecution): OutsideIdentity {
  const typed = typedDataOf(prepared.transaction);
  const message = typed.message as Record<string, unknown>;
  // the types were checked to be the standard SNIP-9 v2 ones (checkTypedData): hashing is bounded
  return {
    nonce: felt64(message.Nonce),
    messageHash: felt64(messageHashOf(typed, prepared.account)),
    executeBefore: prepared.expiresAt,
  };
}

/**
 * Answers that prove the paymaster did not execute: our server's own refusals (made before it
 * relays) and the paymaster's refusals of the signature, the fee, the time bounds, the token,
 * the class or the deployment. Anything else after the signed transaction left the client —
 * a lost or hung answer, a 5xx, an interrupt, an unexpected refusal — may have been executed
 * (a guard that cannot classify its input refuses it: here, assumes the worst).
 */
const DEFINITE_REFUSALS: ReadonlySet<string> = new Set([
  ErrorCode.SIGNATURE_REFUSED,
  ErrorCode.FEE_ABOVE_MAX,
  ErrorCode.RATE_LIMITED,
  ErrorCode.UNAUTHORIZED,
  ErrorCode.TOKEN_EXPIRED,
  ErrorCode.TOKEN_REVOKED,
  ErrorCode.FORBIDDEN,
  ErrorCode.WALLET_MISMATCH,
  ErrorCode.SPONSORED_DISABLED,
  ErrorCode.SPONSORED_LIMIT_REACHED,
  ErrorCode.VALIDATION_ERROR,
  ErrorCode.PAYLOAD_TOO_LARGE,
]);
const REFUSING_SNIP29_CODES: ReadonlySet<unknown> = new Set([150, 151, 153, 154, 155, 157, 158]);

function definitelyNotExecuted(error: AppError): boolean {
  if (DEFINITE_REFUSALS.has(error.code)) return true;
  return (
    error.code === ErrorCode.PAYMASTER_REFUSED &&
    REFUSING_SNIP29_CODES.has(error.details?.paymasterCode)
  );
}

/**
 * The words every "may have been sent" outcome ends with (README "Exit codes"); its details
 * carry `remedy: ['history']` — the history asks the chain how it ended — worded by each face
 * (cli/core/remedy.ts).
 */
const DO_NOT_RETRY = 'do not retry';

/** The spent tokens to check, with the most the fee may take in each (the gas token's maximum in default mode). */
function checkedOutflows(
  prepared: PreparedExecution,
  expected: readonly ExpectedOutflow[],
): Array<{ token: Token; expectation: OutflowExpectation }> {
  return expected.map((e) => ({
    token: e.token,
    expectation: {
      symbol: e.token.symbol,
      exact: e.exact,
      bound: e.bound,
      feeMax:
        prepared.fee.mode === 'default' && sameAddress(prepared.fee.gasToken, e.token.address)
          ? prepared.fee.maxInGasToken
          : 0n,
    },
  }));
}

/**
 * A receipt's outcome is final only when the chain agrees with it (outcome.ts): the receipt read
 * again, the outside-execution nonce, and the spent tokens' balances against `before`. Inside a
 * scope; a disagreement is TRANSACTION_PENDING (how it ended is not known), never an outcome.
 */
async function confirmOutcome(
  ea: ExecutionAccount,
  prepared: PreparedExecution,
  receipt: ExecutionReceipt,
  checked: ReturnType<typeof checkedOutflows>,
  before: readonly bigint[],
): Promise<void> {
  const hash = receipt.transactionHash;
  let nonce: string | undefined;
  try {
    nonce = outsideIdentity(prepared).nonce;
  } catch {
    nonce = undefined;
  }
  // the three reads as one JSON-RPC batch (views.ts; one request each to a node that refuses
  // batches): docs/decisions.md "The account's facts in one batch"
  const round = batchedRound(ea);
  const views = viewsIn(ea, round);
  const [raw, nonceUsed, after] = await Promise.all([
    round({
      method: 'starknet_getTransactionReceipt',
      params: { transaction_hash: `0x${BigInt(hash).toString(16)}` },
      single: () => ea.provider.channel.getTransactionReceipt(hash),
    }) as Promise<RawReceipt>,
    nonce === undefined
      ? Promise.resolve(undefined)
      : outsideNonceAvailable(ea, ea.address, nonce, views).then((available) => !available),
    checked.length === 0
      ? Promise.resolve([])
      : readBalances(ea, {
          tokens: checked.map((c) => c.token),
          signal: currentSignal(),
          views,
        }),
  ]);
  const reread = receiptOutcome(raw, hash, {
    account: prepared.account,
    network: ea.network,
    fee: feePartyOf(prepared),
  }).outcome;
  const balances: BalanceEvidence[] = checked.map((c, i) => ({
    ...c.expectation,
    before: before[i] ?? 0n,
    after: after[i]?.balance ?? 0n,
  }));
  const verdict = judgeOutcome({
    receipt: receipt.status === 'SUCCEEDED' ? 'succeeded' : 'reverted',
    reread,
    nonceUsed,
    balances,
  });
  if (verdict.outcome !== 'unknown') return;
  throw new AppError(
    ErrorCode.TRANSACTION_PENDING,
    `transaction ${hash} was submitted, but the chain's answers contradict each other (${verdict.problem}): how it ended is not known`,
    {
      details: {
        transactionHash: hash,
        receiptStatus: verdict.receipt === 'succeeded' ? 'SUCCEEDED' : 'REVERTED',
        contradiction: verdict.problem,
      },
    },
  );
}

export async function executePrepared(
  ea: ExecutionAccount,
  prepared: PreparedExecution,
  options: ExecuteOptions = {},
): Promise<ExecutionReceipt> {
  let submitted: string | undefined;
  // the signed transaction has left the client (the execute request was started)
  let leftClient = false;
  return inScope(
    options.signal,
    async () => {
      options.onProgress?.({ stage: 'signing' });
      // the spent tokens' balances before anything is sent, read while it is signed
      const checked = checkedOutflows(prepared, options.expected ?? []);
      const reading =
        checked.length === 0
          ? Promise.resolve([])
          : readBalances(ea, { tokens: checked.map((c) => c.token), signal: currentSignal() });
      reading.catch(() => undefined);
      const executable = await ea.account.preparePaymasterTransaction(prepared.transaction);
      const before = (await reading).map((b) => b.balance);
      leftClient = true;
      options.onProgress?.({ stage: 'submitting' });
      const { transaction_hash } = await ea.account.paymaster.executeTransaction(
        executable,
        prepared.transaction.parameters,
      );
      submitted = feltHex(BigInt(transaction_hash));
      options.onProgress?.({ stage: 'submitted', transactionHash: submitted });
      const receipt = toExecutionReceipt(
        await waitForReceipt(ea, submitted, options.onProgress),
        prepared,
        ea.network,
        submitted,
      );
      await confirmOutcome(ea, prepared, receipt, checked, before);
      options.onProgress?.({
        stage: 'confirmed',
        transactionHash: submitted,
        status: receipt.status,
      });
      if (receipt.status === 'REVERTED') {
        throw new AppError(
          ErrorCode.TRANSACTION_REVERTED,
          `the transaction reverted, so nothing changed: ${receipt.revertReason ?? ''}`.slice(
            0,
            1_000,
          ),
          {
            details: {
              transactionHash: receipt.transactionHash,
              revertReason: receipt.revertReason,
              receipt: receiptToJson(receipt),
            },
          },
        );
      }
      return receipt;
    },
    (error, scope) => {
      const mapped = mapChainError(error, scope);
      if (!leftClient || !(mapped instanceof AppError)) return mapped;
      if (submitted === undefined) {
        if (definitelyNotExecuted(mapped)) return mapped;
        // the paymaster may have relayed it: never "failed", never retried blindly
        const identity = outsideIdentity(prepared);
        const why =
          mapped.code === ErrorCode.CANCELLED
            ? 'interrupted while the paymaster was executing it'
            : `the paymaster's answer was lost (${mapped.code})`;
        return new AppError(
          ErrorCode.SUBMITTED_UNCONFIRMED,
          `the signed transaction was sent, but ${why}: it may have been executed; ${DO_NOT_RETRY}`,
          {
            details: {
              transactionHash: null,
              cause: mapped.code,
              remedy: ['history'],
              outsideNonce: identity.nonce,
              messageHash: identity.messageHash,
              executeBefore: identity.executeBefore,
            },
          },
        );
      }
      if (mapped.code === ErrorCode.TRANSACTION_REVERTED) return mapped;
      if (mapped.code === ErrorCode.TRANSACTION_PENDING) {
        return new AppError(ErrorCode.TRANSACTION_PENDING, `${mapped.message}; ${DO_NOT_RETRY}`, {
          details: { ...mapped.details, transactionHash: submitted, remedy: ['history'] },
        });
      }
      // after submission the transaction exists whatever went wrong here: name it
      if (mapped.code === ErrorCode.CANCELLED) {
        return new AppError(
          ErrorCode.SUBMITTED_UNCONFIRMED,
          `interrupted after submission: transaction ${submitted} was sent and may still confirm; ${DO_NOT_RETRY}`,
          {
            details: {
              transactionHash: submitted,
              cause: ErrorCode.CANCELLED,
              remedy: ['history'],
            },
          },
        );
      }
      return new AppError(
        ErrorCode.TRANSACTION_PENDING,
        `transaction ${submitted} was submitted, but its confirmation could not be read (${mapped.message}); ${DO_NOT_RETRY}`,
        { details: { transactionHash: submitted, cause: mapped.code, remedy: ['history'] } },
      );
    },
  );
}

/** prepareExecution then executePrepared: build, check, sign, execute, confirm. */
export async function executeCalls(
  ea: ExecutionAccount,
  calls: readonly ChainCall[],
  options: PrepareOptions,
): Promise<ExecutionReceipt> {
  const prepared = await prepareExecution(ea, calls, options);
  return executePrepared(ea, prepared, options);
}
