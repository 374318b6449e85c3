/**
 * The wallet's money: balances, and sending a token (docs/architecture.md "Execution"), over the
 * chain library (cli/core/chain). Sending is two steps a face can put a confirmation between:
 *
 * 1. `planSend`: checks (registry token, exact amount, recipient address, not yourself, enough
 *    balance), the paymaster build — sponsored when the server offers it, else default mode
 *    paying gas in the gas token (settings; `gasToken` forces it) — and a simulation of exactly
 *    what would be signed. The simulation must show exactly the asked transfer leaving the
 *    account (the fee apart), else nothing goes further. Nothing is signed.
 * 2. `executeSend`: signs and sends exactly the planned transaction, waits for the receipt,
 *    and reads the balances again: the result carries what changed, exactly.
 */
import { formatAmount, parseAmount } from '../../shared/amount.js';
import { AppError, ErrorCode, usageError } from '../../shared/errors.js';
import { findToken, listTokens, resolveToken, type Network, type Token } from '../../shared/tokens.js';
import type { CallOptions } from './call.js';
import type { ExecutionAccount, ExecutionReceipt, PreparedExecution, SimulationResult } from './chain/index.js';
import type { Endpoints, NetworkName } from './endpoints.js';
import { executeTracked, openExecutionAccount, prepareWithFee, rpcUrlOf } from './execution.js';
import { mapSessionError, requireSession, type Session } from './session.js';

/** An exact amount of a registry token: human decimal and base units (strings: JSON-safe). */
export interface TokenAmount {
  symbol: string;
  address: string;
  decimals: number;
  /** exact decimal, trailing zeros trimmed; a leading "-" when it left the account */
  amount: string;
  /** exact base units, signed like `amount` */
  baseUnits: string;
}

export function tokenAmount(token: Pick<Token, 'symbol' | 'address' | 'decimals'>, value: bigint): TokenAmount {
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  return { symbol: token.symbol, address: token.address, decimals: token.decimals, amount: `${sign}${formatAmount(magnitude, token.decimals)}`, baseUnits: value.toString() };
}

const changeAmount = (change: { token: string; symbol: string; decimals: number; amount: bigint }): TokenAmount =>
  tokenAmount({ symbol: change.symbol, address: change.token, decimals: change.decimals }, change.amount);

interface Where {
  email: string;
  address: string;
  network: NetworkName;
  sandbox: boolean;
}

const where = (endpoints: Endpoints, session: Session): Where => ({ email: session.email, address: session.address, network: endpoints.networkName, sandbox: endpoints.sandbox });

function resolveTokens(network: Network, symbols: readonly string[] | undefined): readonly Token[] {
  if (symbols === undefined || symbols.length === 0) return listTokens(network);
  const seen = new Set<string>();
  return symbols
    .map((symbol) => resolveToken(network, symbol))
    .filter((token) => {
      if (seen.has(token.address)) return false;
      seen.add(token.address);
      return true;
    });
}

export interface BalanceResult extends Where {
  balances: TokenAmount[];
}

/** The session wallet's balances of `tokens` (symbols or addresses; default: the whole registry). */
export async function balances(endpoints: Endpoints, options: { tokens?: readonly string[]; now?: () => number } = {}, call: CallOptions = {}): Promise<BalanceResult> {
  const session = requireSession(endpoints, options.now ? { now: options.now } : {});
  const tokens = resolveTokens(endpoints.network, options.tokens);
  const [{ createChainReader, readBalances }, rpcUrl] = await Promise.all([import('./chain/index.js'), rpcUrlOf(endpoints)]);
  const reader = createChainReader({ address: session.address, rpcUrl, network: endpoints.network });
  const read = await readBalances(reader, { tokens, ...(call.signal ? { signal: call.signal } : {}) });
  return { ...where(endpoints, session), balances: read.map(({ token, balance }) => tokenAmount(token, balance)) };
}

export interface SendRequest {
  /** decimal in token units ("1.5") */
  amount: string;
  /** symbol or address of a registry token */
  token: string;
  /** recipient address */
  to: string;
  /** pay gas in this token (default mode) instead of asking for sponsorship first */
  gasToken?: string | undefined;
  /** refuse a plan whose maximum fee is above this, in gas-token units ("0.5") */
  maxFee?: string | undefined;
  now?: () => number;
}

export interface SendPlan extends Where {
  to: string;
  amount: TokenAmount;
  /** the first transaction of an account deploys it (deploy_and_invoke) */
  deploysAccount: boolean;
  calls: Array<{ contract: string; entrypoint: string; description: string }>;
  fee: { mode: 'sponsored' } | { mode: 'default'; estimated: TokenAmount; max: TokenAmount };
  /** what the simulation of exactly this transaction does to the account, the fee apart */
  simulatedChanges: TokenAmount[];
  /** ISO time after which the paymaster refuses it (plan again) */
  expiresAt: string;
}

export interface PlannedSend {
  plan: SendPlan;
  /** balances of the sent token and the gas token when planned */
  before: TokenAmount[];
  /** opaque: what executeSend signs */
  readonly prepared: PreparedExecution;
  readonly account: ExecutionAccount;
  readonly session: Session;
  readonly tokens: readonly Token[];
}

export interface SendResult {
  plan: SendPlan;
  /** the transaction could not be recorded in the local history (it is unaffected) */
  historyWarning?: string;
  receipt: {
    transactionHash: string;
    status: 'SUCCEEDED' | 'REVERTED';
    deployedAccount: boolean;
    blockNumber: number | null;
    /** what the account paid for gas, net of refunds; null when sponsored */
    feePaid: TokenAmount | null;
    /** net per token from the receipt's Transfer events, the fee apart */
    balanceChanges: TokenAmount[];
  };
  /** read before and after: exact */
  balances: Array<{ before: TokenAmount; after: TokenAmount; change: TokenAmount }>;
}

const signalOf = (call: CallOptions) => (call.signal ? { signal: call.signal } : {});

function insufficient(token: Token, need: bigint, have: bigint, what: string): AppError {
  return new AppError(
    ErrorCode.INSUFFICIENT_BALANCE,
    `not enough ${token.symbol}: ${what} needs ${formatAmount(need, token.decimals)}, the wallet holds ${formatAmount(have, token.decimals)}`,
    { status: 400, details: { token: token.symbol, needed: need.toString(), available: have.toString() } },
  );
}

function checkSimulation(simulation: SimulationResult, token: Token, amount: bigint): TokenAmount[] {
  if (simulation.status === 'REVERTED') {
    throw new AppError(ErrorCode.SIMULATION_REVERTED, `the transaction would revert (${simulation.revertReason ?? 'no reason given'}); nothing was signed`, { status: 400 });
  }
  const changes = simulation.balanceChanges;
  const only = changes.length === 1 ? changes[0] : undefined;
  if (only === undefined || BigInt(only.token) !== BigInt(token.address) || only.amount !== -amount) {
    const seen = changes.map((c) => `${formatAmount(c.amount < 0n ? -c.amount : c.amount, c.decimals)} ${c.symbol} ${c.amount < 0n ? 'out' : 'in'}`).join(', ') || 'no change';
    throw new AppError(
      ErrorCode.TAMPERED_TRANSACTION,
      `the simulation does not show exactly ${formatAmount(amount, token.decimals)} ${token.symbol} leaving the wallet (it shows: ${seen}); nothing was signed`,
      { status: 502 },
    );
  }
  return changes.map(changeAmount);
}

/** Everything up to the confirmation: checked, built, simulated. Nothing is signed. */
export async function planSend(endpoints: Endpoints, request: SendRequest, call: CallOptions = {}): Promise<PlannedSend> {
  const session = requireSession(endpoints, request.now ? { now: request.now } : {});
  const chain = await import('./chain/index.js');
  const token = resolveToken(endpoints.network, request.token);
  const amount = parseAmount(request.amount, token.decimals, { label: token.symbol });
  if (amount <= 0n) throw new AppError(ErrorCode.INVALID_AMOUNT, 'the amount to send must be greater than zero', { status: 400 });
  const to = chain.parseAddress(request.to, 'recipient');
  if (BigInt(to) === BigInt(session.address)) throw usageError('the recipient is your own wallet: nothing to send');
  const gasToken = resolveToken(endpoints.network, request.gasToken ?? endpoints.gasToken);
  const maxFee = request.maxFee === undefined ? undefined : parseAmount(request.maxFee, gasToken.decimals, { label: `--max-fee (${gasToken.symbol})` });
  const tokens = gasToken.address === token.address ? [token] : [token, gasToken];

  const account = await openExecutionAccount(endpoints, session, call);
  try {
    const before = await chain.readBalances(account, { tokens, ...signalOf(call) });
    const held = (t: Token): bigint => before.find((b) => b.token.address === t.address)?.balance ?? 0n;
    if (held(token) < amount) throw insufficient(token, amount, held(token), 'this transfer');

    const calls = [chain.buildTransferCall(token, to, amount)];
    const prepared = await prepareWithFee(account, calls, { gasToken, forced: request.gasToken !== undefined, maxFee }, call, 'send');
    if (prepared.fee.mode === 'default') {
      const fee = prepared.fee.maxInGasToken;
      const need = gasToken.address === token.address ? amount + fee : fee;
      if (held(gasToken) < need) throw insufficient(gasToken, need, held(gasToken), gasToken.address === token.address ? 'the transfer plus the maximum fee' : 'the maximum fee');
    }
    call.onProgress?.({ step: 'send-simulating', message: 'simulating the transaction…' });
    const simulation = await chain.simulatePrepared(account, prepared, signalOf(call));
    const simulatedChanges = checkSimulation(simulation, token, amount);
    const feeToken = prepared.fee.mode === 'default' ? (findToken(endpoints.network, prepared.fee.gasToken) ?? gasToken) : gasToken;
    const plan: SendPlan = {
      ...where(endpoints, session),
      to,
      amount: tokenAmount(token, amount),
      deploysAccount: prepared.kind === 'deploy_and_invoke',
      calls: [{ contract: token.address, entrypoint: 'transfer', description: `transfer exactly ${formatAmount(amount, token.decimals)} ${token.symbol} to ${to}` }],
      fee:
        prepared.fee.mode === 'sponsored'
          ? { mode: 'sponsored' }
          : { mode: 'default', estimated: tokenAmount(feeToken, prepared.fee.estimatedInGasToken), max: tokenAmount(feeToken, prepared.fee.maxInGasToken) },
      simulatedChanges,
      expiresAt: new Date(prepared.expiresAt * 1000).toISOString(),
    };
    return { plan, before: before.map((b) => tokenAmount(b.token, b.balance)), prepared, account, session, tokens };
  } catch (error) {
    throw mapSessionError(session, error);
  }
}

function receiptView(receipt: ExecutionReceipt, network: Network): SendResult['receipt'] {
  const fee = receipt.feePaid;
  const feeToken = fee === null ? undefined : findToken(network, fee.token);
  return {
    transactionHash: receipt.transactionHash,
    status: receipt.status,
    deployedAccount: receipt.deployed,
    blockNumber: receipt.blockNumber,
    feePaid: fee === null || feeToken === undefined ? null : tokenAmount(feeToken, fee.amount),
    balanceChanges: receipt.balanceChanges.map(changeAmount),
  };
}

/** Signs and sends exactly the planned transaction; the result says what changed, exactly. */
export async function executeSend(endpoints: Endpoints, planned: PlannedSend, call: CallOptions & { now?: () => number } = {}): Promise<SendResult> {
  const now = (call.now ?? Date.now)();
  if (now >= planned.prepared.expiresAt * 1000) {
    throw new AppError(ErrorCode.CONFIRMATION_REQUIRED, `the plan expired at ${planned.plan.expiresAt}; plan it again and confirm the new one. Nothing was signed`, { status: 400 });
  }
  const [chain, { openHistory, trackTransaction }] = await Promise.all([import('./chain/index.js'), import('./history.js')]);
  const { amount, to } = planned.plan;
  const tracker = trackTransaction(openHistory(endpoints.dataDir), {
    kind: 'send',
    network: endpoints.network,
    sandbox: endpoints.sandbox,
    account: planned.account.address,
    summary: `send ${amount.amount} ${amount.symbol} to ${to}`,
    amounts: [{ direction: 'out', symbol: amount.symbol, address: amount.address, amount: amount.amount, baseUnits: amount.baseUnits, basis: 'sent', to }],
  });
  try {
    const receipt = await executeTracked(planned.account, planned.prepared, tracker, call, 'send');
    await tracker.settled(receipt.transactionHash, { status: 'succeeded' });
    const after = await chain.readBalances(planned.account, { tokens: planned.tokens, ...signalOf(call) });
    return {
      plan: planned.plan,
      ...(tracker.warnings.length > 0 ? { historyWarning: tracker.warnings.join('; ') } : {}),
      receipt: receiptView(receipt, endpoints.network),
      balances: after.map(({ token, balance }) => {
        const before = BigInt(planned.before.find((b) => b.address === token.address)?.baseUnits ?? '0');
        return { before: tokenAmount(token, before), after: tokenAmount(token, balance), change: tokenAmount(token, balance - before) };
      }),
    };
  } catch (error) {
    throw mapSessionError(planned.session, error);
  }
}
