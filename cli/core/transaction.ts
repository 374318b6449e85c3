/**
 * One transaction read back from the chain by its hash (docs/architecture.md "Execution"): its
 * finality and execution status, block, revert reason, the fee, and what it changed in the
 * session wallet's registry-token balances (chain/transfers.ts, from its Transfer events). The
 * chain is the truth; the local history is only a record. Read-only.
 */
import { RpcError } from 'starknet';
import { formatAmount } from '../../shared/amount.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { FELT_HEX, feltHex } from '../../shared/felt.js';
import { printable } from '../../shared/printable.js';
import type { CallOptions } from './call.js';
import type { Endpoints } from './endpoints.js';
import { rpcUrlOf } from './execution.js';
import { requireSession } from './session.js';

interface TransactionView {
  hash: string;
  network: Endpoints['networkName'];
  sandbox: boolean;
  /** the wallet whose balance changes are shown */
  account: string;
  finality: string;
  execution: 'SUCCEEDED' | 'REVERTED' | null;
  blockNumber: number | null;
  revertReason: string | null;
  actualFee: { amount: string; unit: string } | null;
  balanceChanges: Array<{ symbol: string; address: string; amount: string; baseUnits: string }>;
}

/** A transaction hash as typed: 0x and 1–64 hex digits, else INVALID_ADDRESS-like usage error. */
function parseTransactionHash(text: string): string {
  if (!FELT_HEX.test(text))
    throw new AppError(
      ErrorCode.USAGE_ERROR,
      'a transaction hash is 0x followed by 1 to 64 hex digits',
    );
  return feltHex(BigInt(text));
}

interface RawStatus {
  finality_status?: string;
  execution_status?: string;
}

interface RawReceipt {
  transaction_hash?: unknown;
  block_number?: number;
  revert_reason?: string;
  execution_status?: unknown;
  actual_fee?: { amount?: string; unit?: string };
  events?: Array<{ from_address?: string; keys: string[]; data: string[] }>;
}

/** Reads `hash` from the chain: NOT_FOUND when the node has never seen it. */
export async function readTransaction(
  endpoints: Endpoints,
  hashText: string,
  call: CallOptions = {},
): Promise<TransactionView> {
  const hash = parseTransactionHash(hashText);
  const session = requireSession(endpoints);
  const [
    { createChainReader },
    { inScope },
    { mapChainError },
    { summarizeTransfers },
    { receiptOutcome },
    rpcUrl,
  ] = await Promise.all([
    import('./chain/account.js'),
    import('./chain/scope.js'),
    import('./chain/errors.js'),
    import('./chain/transfers.js'),
    import('./chain/receipt.js'),
    rpcUrlOf(endpoints),
  ]);
  const reader = createChainReader({
    address: session.address,
    rpcUrl,
    network: endpoints.network,
  });
  const read = await inScope(
    call.signal,
    async (): Promise<{ status: RawStatus; receipt: RawReceipt | undefined } | undefined> => {
      try {
        const status = (await reader.provider.getTransactionStatus(hash)) as RawStatus;
        const receipt =
          status.execution_status === undefined
            ? undefined
            : ((await reader.provider.channel.getTransactionReceipt(
                hash,
              )) as unknown as RawReceipt);
        return { status, receipt };
      } catch (error) {
        // 29 TXN_HASH_NOT_FOUND
        if (error instanceof RpcError && error.code === 29) return undefined;
        throw error;
      }
    },
    mapChainError,
  );
  if (read === undefined)
    throw new AppError(ErrorCode.NOT_FOUND, `the network has no transaction ${hash}`);
  const { status } = read;
  // a receipt of another transaction (or of none) says nothing about this one (chain/receipt.ts)
  const verdict =
    read.receipt === undefined
      ? undefined
      : receiptOutcome(read.receipt, hash, {
          account: session.address,
          network: endpoints.network,
        });
  const receipt =
    verdict?.outcome === 'unknown' && verdict.reason === 'hash' ? undefined : read.receipt;
  const changes =
    receipt === undefined
      ? []
      : summarizeTransfers(
          (receipt.events ?? []).map((event) => ({ event })),
          session.address,
          endpoints.network,
          undefined,
        ).balanceChanges;
  // an outcome only when the receipt proves one and the status agrees; else unknown (null)
  const proven =
    verdict?.outcome === 'succeeded'
      ? 'SUCCEEDED'
      : verdict?.outcome === 'reverted'
        ? 'REVERTED'
        : null;
  const execution = proven !== null && status.execution_status === proven ? proven : null;
  return {
    hash,
    network: endpoints.networkName,
    sandbox: endpoints.sandbox,
    account: session.address,
    finality: finalityOf(status.finality_status),
    execution,
    blockNumber: typeof receipt?.block_number === 'number' ? receipt.block_number : null,
    revertReason:
      execution === 'REVERTED'
        ? // the chain's words: outside text, made printable where it enters
          printable(String(receipt?.revert_reason ?? ''), 1000) || 'reverted (no reason given)'
        : null,
    actualFee: feeOf(receipt?.actual_fee),
    balanceChanges: changes.map((c) => {
      const magnitude = c.amount < 0n ? -c.amount : c.amount;
      return {
        symbol: c.symbol,
        address: c.token,
        amount: `${c.amount < 0n ? '-' : ''}${formatAmount(magnitude, c.decimals)}`,
        baseUnits: c.amount.toString(),
      };
    }),
  };
}

/** The finality statuses of the JSON-RPC spec; anything else a node says is UNKNOWN, not its words. */
const FINALITY = new Set([
  'RECEIVED',
  'CANDIDATE',
  'PRE_CONFIRMED',
  'ACCEPTED_ON_L2',
  'ACCEPTED_ON_L1',
]);
export const finalityOf = (value: unknown): string =>
  typeof value === 'string' && FINALITY.has(value) ? value : 'UNKNOWN';

/** The receipt's fee as the spec has it (a felt and FRI or WEI); anything else is no fee, not the node's words. */
export function feeOf(fee: { amount?: unknown; unit?: unknown } | undefined): {
  amount: string;
  unit: string;
} | null {
  if (fee === undefined) return null;
  const amount = typeof fee.amount === 'string' ? fee.amount : undefined;
  const unit = fee.unit === 'FRI' || fee.unit === 'WEI' ? fee.unit : undefined;
  if (amount === undefined || !/^0x[0-9a-fA-F]{1,64}$/.test(amount) || unit === undefined)
    return null;
  return { amount, unit };
}
