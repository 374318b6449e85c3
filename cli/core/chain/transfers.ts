/**
 * What a transaction did to the account, read from ERC-20 `Transfer` events (both layouts,
 * shared/erc20.ts) — of registry tokens only: any contract can emit an event named Transfer, so
 * an unknown emitter is never taken as a balance change. Transfers between the account and the
 * paymaster's fee recipient in the gas token are the fee, reported apart from balance changes.
 */
import { type Erc20Transfer, parseTransferEvent, type RawEvent } from '../../../shared/erc20.js';
import { findToken, type Network } from '../../../shared/tokens.js';

export interface BalanceChange {
  /** 0x + 64 hex */
  token: string;
  symbol: string;
  decimals: number;
  /** signed base units: negative left the account */
  amount: bigint;
}

interface TransferSummary {
  /** registry-token transfers to or from the account, in event order */
  transfers: Erc20Transfer[];
  /** net per token, fee excluded; tokens whose net is zero are left out */
  balanceChanges: BalanceChange[];
  /** net paid to the fee recipient in the gas token (0 when nothing was) */
  feePaid: bigint;
}

export interface FeeParty {
  recipient: string;
  gasToken: string;
}

export function summarizeTransfers(
  events: ReadonlyArray<{ event: RawEvent; from?: string }>,
  account: string,
  network: Network,
  fee: FeeParty | undefined,
): TransferSummary {
  const me = BigInt(account);
  const transfers: Erc20Transfer[] = [];
  const net = new Map<string, bigint>();
  let feePaid = 0n;
  for (const { event, from } of events) {
    const transfer = parseTransferEvent(event, from);
    if (transfer === undefined || findToken(network, transfer.token) === undefined) continue;
    const out = BigInt(transfer.from) === me;
    const into = BigInt(transfer.to) === me;
    if (!out && !into) continue;
    transfers.push(transfer);
    if (out && into) continue;
    const counterparty = BigInt(out ? transfer.to : transfer.from);
    const signed = out ? -transfer.amount : transfer.amount;
    if (
      fee !== undefined &&
      counterparty === BigInt(fee.recipient) &&
      BigInt(transfer.token) === BigInt(fee.gasToken)
    ) {
      feePaid -= signed;
      continue;
    }
    net.set(transfer.token, (net.get(transfer.token) ?? 0n) + signed);
  }
  const balanceChanges: BalanceChange[] = [];
  for (const [address, amount] of net) {
    const token = findToken(network, address);
    if (token !== undefined && amount !== 0n)
      balanceChanges.push({
        token: token.address,
        symbol: token.symbol,
        decimals: token.decimals,
        amount,
      });
  }
  return { transfers, balanceChanges, feePaid };
}
