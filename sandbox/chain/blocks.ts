/**
 * Blocks, transactions, receipts and events of the sandbox chain as starknet-specs v0.10.0 writes
 * them (docs/sandbox-chain.md "Blocks and transactions").
 *
 * - Block 0 is the genesis; every relayed transaction is sealed at once in a block of its own, so
 *   a block holds 0 or 1 transaction (index 0). `latest` and `l1_accepted` name the newest block
 *   the node shows (the sandbox has no L1); `pre_confirmed` is an empty block at latest + 1.
 * - The sandbox keeps no Merkle tries: `new_root` and the four commitments are 0x0, and
 *   `state_diff_length` is 0 (the spec's words for data a node does not have).
 * - A relayed transaction is the paymaster relayer's INVOKE v3 (its calls to the forwarder),
 *   tip 0, resource bounds exactly what it consumed at the block's prices, no signature (the
 *   relayer is a label, not a modelled account).
 */
import { hex } from './executor.js';
import type { BlockRecord, Ledger, TransactionRecord } from './ledger.js';
import { SEQUENCER_ADDRESS } from './contracts.js';

const STARKNET_VERSION = '0.14.0';

const price = (fri: bigint, wei: bigint): Record<string, string> => ({
  price_in_fri: hex(fri),
  price_in_wei: hex(wei),
});

function pricesJson(
  block: Pick<BlockRecord, 'gasPrices' | 'gasPricesWei'>,
): Record<string, unknown> {
  return {
    l1_gas_price: price(block.gasPrices.l1, block.gasPricesWei.l1),
    l2_gas_price: price(block.gasPrices.l2, block.gasPricesWei.l2),
    l1_data_gas_price: price(block.gasPrices.l1Data, block.gasPricesWei.l1Data),
    l1_da_mode: 'BLOB',
    starknet_version: STARKNET_VERSION,
  };
}

function blockHeaderJson(block: BlockRecord, ledger: Ledger): Record<string, unknown> {
  const transactions = block.transactions.map(
    (hash) => ledger.transaction(hash) as TransactionRecord,
  );
  return {
    status: 'ACCEPTED_ON_L2',
    block_hash: hex(block.hash),
    parent_hash: hex(block.parentHash),
    block_number: block.number,
    new_root: '0x0',
    timestamp: block.timestamp,
    sequencer_address: hex(SEQUENCER_ADDRESS),
    ...pricesJson(block),
    event_commitment: '0x0',
    transaction_commitment: '0x0',
    receipt_commitment: '0x0',
    state_diff_commitment: '0x0',
    event_count: transactions.reduce((sum, tx) => sum + tx.events.length, 0),
    transaction_count: transactions.length,
    state_diff_length: 0,
  };
}

/** The block being built at latest + 1: empty (relayed transactions are sealed at once). */
export function preConfirmedHeaderJson(latest: BlockRecord, now: number): Record<string, unknown> {
  return {
    block_number: latest.number + 1,
    timestamp: Math.floor(now / 1000),
    sequencer_address: hex(SEQUENCER_ADDRESS),
    ...pricesJson(latest),
  };
}

/** TXN (INVOKE_TXN_V3) of a relayed transaction, without its hash. */
export function transactionJson(
  tx: TransactionRecord,
  block: BlockRecord,
): Record<string, unknown> {
  const prices = block.gasPrices;
  return {
    type: 'INVOKE',
    version: '0x3',
    sender_address: hex(tx.sender),
    calldata: tx.calldata.map(hex),
    signature: [],
    nonce: hex(tx.nonce),
    resource_bounds: {
      l1_gas: { max_amount: '0x0', max_price_per_unit: hex(prices.l1) },
      l1_data_gas: { max_amount: hex(tx.l1DataGas), max_price_per_unit: hex(prices.l1Data) },
      l2_gas: { max_amount: hex(tx.l2Gas), max_price_per_unit: hex(prices.l2) },
    },
    tip: '0x0',
    paymaster_data: [],
    account_deployment_data: [],
    nonce_data_availability_mode: 'L1',
    fee_data_availability_mode: 'L1',
  };
}

/** TXN_RECEIPT; with `withBlock`, TXN_RECEIPT_WITH_BLOCK_INFO. */
export function receiptJson(tx: TransactionRecord, withBlock: boolean): Record<string, unknown> {
  return {
    type: 'INVOKE',
    transaction_hash: hex(tx.hash),
    actual_fee: { amount: hex(tx.actualFee), unit: 'FRI' },
    execution_status: tx.status,
    finality_status: 'ACCEPTED_ON_L2',
    ...(withBlock ? { block_hash: hex(tx.blockHash), block_number: tx.blockNumber } : {}),
    messages_sent: [],
    events: tx.events,
    execution_resources: { l1_gas: 0, l1_data_gas: Number(tx.l1DataGas), l2_gas: Number(tx.l2Gas) },
    ...(tx.status === 'REVERTED' ? { revert_reason: tx.revertReason } : {}),
  };
}

export type BodyKind = 'hashes' | 'transactions' | 'receipts';

export function blockJson(
  block: BlockRecord,
  ledger: Ledger,
  kind: BodyKind,
): Record<string, unknown> {
  const transactions = block.transactions.map(
    (hash) => ledger.transaction(hash) as TransactionRecord,
  );
  const body =
    kind === 'hashes'
      ? transactions.map((tx) => hex(tx.hash))
      : kind === 'transactions'
        ? transactions.map((tx) => ({
            transaction_hash: hex(tx.hash),
            ...transactionJson(tx, block),
          }))
        : transactions.map((tx) => ({
            transaction: transactionJson(tx, block),
            receipt: receiptJson(tx, false),
          }));
  return { ...blockHeaderJson(block, ledger), transactions: body };
}

// ── starknet_getEvents ────────────────────────────────────────────────────────

/** Bounds of one starknet_getEvents call (a stranger can make it). */
export const EVENTS_LIMITS = {
  /** chunk_size above this is 31 PAGE_SIZE_TOO_BIG */
  maxChunkSize: 1_000,
  /** key positions, and keys over all positions, above these are 34 TOO_MANY_KEYS_IN_FILTER */
  maxKeyPositions: 16,
  maxKeys: 256,
  /** blocks plus events looked at per call: past it the page ends early, with a continuation token */
  maxScan: 10_000,
} as const;

interface EventFilter {
  fromBlock: number;
  toBlock: number;
  address: bigint | undefined;
  /** per position, the allowed values (an empty set allows any) */
  keys: ReadonlyArray<ReadonlySet<bigint>>;
  chunkSize: number;
  /** where to start: a block and an event index in it */
  start: { block: number; event: number };
}

/** A continuation token: `<block>-<event>` (decimal), where the next page starts. */
const continuationToken = (block: number, event: number): string => `${block}-${event}`;

export function parseContinuationToken(
  token: string,
): { block: number; event: number } | undefined {
  const match = /^([0-9]{1,12})-([0-9]{1,9})$/.exec(token);
  if (match === null) return undefined;
  return { block: Number(match[1]), event: Number(match[2]) };
}

function matches(event: { from_address: string; keys: string[] }, filter: EventFilter): boolean {
  if (filter.address !== undefined && BigInt(event.from_address) !== filter.address) return false;
  if (event.keys.length < filter.keys.length) {
    // a position the event does not have matches only an "any" position
    if (filter.keys.slice(event.keys.length).some((allowed) => allowed.size > 0)) return false;
  }
  return filter.keys.every(
    (allowed, position) =>
      allowed.size === 0 ||
      (event.keys[position] !== undefined && allowed.has(BigInt(event.keys[position] as string))),
  );
}

/** EVENTS_CHUNK for `filter` over blocks fromBlock..toBlock (both shown), bounded by EVENTS_LIMITS.maxScan. */
export function eventsChunk(
  ledger: Ledger,
  filter: EventFilter,
): { events: Array<Record<string, unknown>>; continuation_token?: string } {
  const events: Array<Record<string, unknown>> = [];
  let scanned = 0;
  for (
    let number = Math.max(filter.start.block, filter.fromBlock);
    number <= filter.toBlock;
    number += 1
  ) {
    const block = ledger.block(number) as BlockRecord;
    scanned += 1;
    for (const [transactionIndex, hash] of block.transactions.entries()) {
      const tx = ledger.transaction(hash) as TransactionRecord;
      const first = number === filter.start.block ? filter.start.event : 0;
      for (let eventIndex = first; eventIndex < tx.events.length; eventIndex += 1) {
        if (events.length === filter.chunkSize || scanned >= EVENTS_LIMITS.maxScan)
          return { events, continuation_token: continuationToken(number, eventIndex) };
        scanned += 1;
        const event = tx.events[eventIndex] as TransactionRecord['events'][number];
        if (!matches(event, filter)) continue;
        events.push({
          ...event,
          block_hash: hex(block.hash),
          block_number: block.number,
          transaction_hash: hex(tx.hash),
          transaction_index: transactionIndex,
          event_index: eventIndex,
        });
      }
    }
    if (scanned >= EVENTS_LIMITS.maxScan && number < filter.toBlock)
      return { events, continuation_token: continuationToken(number + 1, 0) };
  }
  return { events };
}
