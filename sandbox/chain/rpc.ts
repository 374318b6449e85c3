/**
 * The Starknet JSON-RPC of the sandbox chain: starknet-specs v0.10.0 (the version starknet.js 10
 * targets), as docs/sandbox-chain.md lists it. A method not served is -32601 naming what is.
 * Errors are the spec's objects (code, message word for word, data as its schema says):
 * 20 CONTRACT_NOT_FOUND, 21 ENTRYPOINT_NOT_FOUND, 24 BLOCK_NOT_FOUND, 27 INVALID_TXN_INDEX, 28 CLASS_HASH_NOT_FOUND,
 * 29 TXN_HASH_NOT_FOUND, 31 PAGE_SIZE_TOO_BIG, 33 INVALID_CONTINUATION_TOKEN,
 * 34 TOO_MANY_KEYS_IN_FILTER, 40 CONTRACT_ERROR, 41 TRANSACTION_EXECUTION_ERROR.
 *
 * State: only the latest exists. A state read (call, getNonce, getStorageAt, getClassAt, …)
 * takes the tags latest / pre_confirmed / l1_accepted or the latest block's number or hash; an
 * older block is 24. Blocks themselves (getBlockWith…, getEvents) are kept from the genesis on.
 *
 * Work is bounded per call: 8 transactions per simulation or estimate, 4 096 calldata felts per
 * transaction, events pages of at most 1 000 and 10 000 blocks and events looked at (blocks.ts).
 */
import { selectorOf } from '../../shared/erc20.js';
import {
  blockJson,
  type BodyKind,
  eventsChunk,
  EVENTS_LIMITS,
  parseContinuationToken,
  preConfirmedHeaderJson,
  receiptJson,
  transactionJson,
} from './blocks.js';
import {
  type Chain,
  ContractNotFound,
  SimulationFailure,
  type SimulatedTransaction,
  type SimulationOutcome,
} from './chain.js';
import { contractClassOf } from './classes.js';
import { EntryPointNotFound, hex, type Invocation, Revert } from './executor.js';
import {
  feltListParam,
  feltParam,
  invalidParams,
  type MethodTable,
  objectParam,
  RpcFailure,
} from './jsonrpc.js';
import type { BlockRecord, TransactionRecord } from './ledger.js';
import { deployAccountTransactionHash, invokeTransactionHash, readV3Fields } from './validation.js';

/** The spec version served (starknet_specVersion): its schemas are the ones the conformance test validates against. */
const SPEC_VERSION = '0.10.0';
export const SANDBOX_CHAIN_ID_HEX = `0x${Buffer.from('SN_SANDBOX').toString('hex')}`;

const MAX_CALLDATA = 4_096;
const MAX_SIMULATED = 8;

/** starknet-specs v0.10.0's error objects this node answers (components/errors). */
const SPEC_ERROR = {
  CONTRACT_NOT_FOUND: { code: 20, message: 'Contract not found' },
  ENTRYPOINT_NOT_FOUND: {
    code: 21,
    message: 'Requested entry point does not exist in the contract',
  },
  BLOCK_NOT_FOUND: { code: 24, message: 'Block not found' },
  INVALID_TXN_INDEX: { code: 27, message: 'Invalid transaction index in a block' },
  CLASS_HASH_NOT_FOUND: { code: 28, message: 'Class hash not found' },
  TXN_HASH_NOT_FOUND: { code: 29, message: 'Transaction hash not found' },
  PAGE_SIZE_TOO_BIG: { code: 31, message: 'Requested page size is too big' },
  INVALID_CONTINUATION_TOKEN: {
    code: 33,
    message: 'The supplied continuation token is invalid or unknown',
  },
  TOO_MANY_KEYS_IN_FILTER: { code: 34, message: 'Too many keys provided in a filter' },
  CONTRACT_ERROR: { code: 40, message: 'Contract error' },
  TRANSACTION_EXECUTION_ERROR: { code: 41, message: 'Transaction execution error' },
} as const;

/** A spec error; `data` only where the spec defines one (40, 41), the others go without. */
const specError = (name: keyof typeof SPEC_ERROR, data?: unknown): RpcFailure =>
  new RpcFailure(SPEC_ERROR[name].code, SPEC_ERROR[name].message, data);
const executionError = (index: number, error: string): RpcFailure =>
  specError('TRANSACTION_EXECUTION_ERROR', { transaction_index: index, execution_error: error });

// ── block ids ─────────────────────────────────────────────────────────────────

type ResolvedBlock =
  | { kind: 'block'; block: BlockRecord }
  | { kind: 'pre_confirmed'; latest: BlockRecord };

const BLOCK_ID_SHAPE =
  'a tag (latest, pre_confirmed, l1_accepted) or {block_number} / {block_hash}';

/** A BLOCK_ID → the block it names (24 when there is none such yet); -32602 when it is no BLOCK_ID. */
function resolveBlockId(chain: Chain, value: unknown, name: string): ResolvedBlock {
  const latest = chain.latestBlock();
  if (value === undefined || value === 'latest' || value === 'l1_accepted')
    return { kind: 'block', block: latest };
  if (value === 'pre_confirmed') return { kind: 'pre_confirmed', latest };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidParams(`${name} must be ${BLOCK_ID_SHAPE}`);
  const id = value as Record<string, unknown>;
  const byNumber = 'block_number' in id;
  const byHash = 'block_hash' in id;
  if (byNumber === byHash) throw invalidParams(`${name} must be ${BLOCK_ID_SHAPE}`);
  let block: BlockRecord | undefined;
  if (byNumber) {
    const number = id.block_number;
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0)
      throw invalidParams(`${name}.block_number must be a non-negative integer`);
    block = number <= latest.number ? chain.ledger.block(number) : undefined;
  } else {
    const found = chain.ledger.blockByHash(feltParam(id.block_hash, `${name}.block_hash`));
    block = found !== undefined && found.number <= latest.number ? found : undefined;
  }
  if (block === undefined) throw specError('BLOCK_NOT_FOUND');
  return { kind: 'block', block };
}

/** A state read's block: the latest state, by tag or by the latest block's number or hash; older is 24. */
function checkStateBlock(chain: Chain, value: unknown): void {
  const resolved = resolveBlockId(chain, value, 'block_id');
  if (resolved.kind === 'block' && resolved.block.number !== chain.latestBlock().number)
    throw specError('BLOCK_NOT_FOUND');
}

function visibleTransaction(chain: Chain, params: Record<string, unknown>): TransactionRecord {
  const hash = feltParam(params.transaction_hash, 'transaction_hash');
  const tx = chain.ledger.transaction(hash);
  if (tx === undefined || chain.now() < tx.visibleAt) throw specError('TXN_HASH_NOT_FOUND');
  return tx;
}

function blockOf(
  chain: Chain,
  params: Record<string, unknown>,
  kind: BodyKind,
): Record<string, unknown> {
  const resolved = resolveBlockId(chain, params.block_id, 'block_id');
  if (resolved.kind === 'pre_confirmed')
    return { ...preConfirmedHeaderJson(resolved.latest, chain.chainTimeMs()), transactions: [] };
  return blockJson(resolved.block, chain.ledger, kind);
}

// ── traces ────────────────────────────────────────────────────────────────────

function invocationJson(node: Invocation, gas: { l2: bigint }): Record<string, unknown> {
  return {
    contract_address: hex(node.contractAddress),
    entry_point_selector: hex(node.selector),
    calldata: node.calldata.map(hex),
    caller_address: hex(node.caller),
    class_hash: hex(node.classHash),
    entry_point_type: 'EXTERNAL',
    call_type: 'CALL',
    result: node.result.map(hex),
    calls: node.calls.map((child) => invocationJson(child, { l2: 0n })),
    events: node.events.map((event) => ({
      order: event.order,
      keys: event.keys.map(hex),
      data: event.data.map(hex),
    })),
    messages: [],
    execution_resources: { l1_gas: 0, l2_gas: Number(gas.l2) },
    is_reverted: false,
  };
}

function feeEstimationJson(chain: Chain, outcome: SimulationOutcome): Record<string, unknown> {
  const prices = chain.gasPrices;
  return {
    l1_gas_consumed: hex(outcome.usage.l1),
    l1_gas_price: hex(prices.l1),
    l1_data_gas_consumed: hex(outcome.usage.l1Data),
    l1_data_gas_price: hex(prices.l1Data),
    l2_gas_consumed: hex(outcome.usage.l2),
    l2_gas_price: hex(prices.l2),
    overall_fee: hex(outcome.fee),
    unit: 'FRI',
  };
}

function simulationJson(chain: Chain, outcome: SimulationOutcome): Record<string, unknown> {
  const resources = {
    l1_gas: 0,
    l1_data_gas: Number(outcome.usage.l1Data),
    l2_gas: Number(outcome.usage.l2),
  };
  const fee_estimation = feeEstimationJson(chain, outcome);
  if (outcome.type === 'DEPLOY_ACCOUNT') {
    return {
      transaction_trace: {
        type: 'DEPLOY_ACCOUNT',
        constructor_invocation: {
          contract_address: hex(outcome.address),
          entry_point_selector: hex(selectorOf('constructor')),
          calldata: [],
          caller_address: '0x0',
          class_hash: hex(chain.accountClassHash),
          entry_point_type: 'CONSTRUCTOR',
          call_type: 'CALL',
          result: [],
          calls: [],
          events: [],
          messages: [],
          execution_resources: { l1_gas: 0, l2_gas: Number(outcome.usage.l2) },
          is_reverted: false,
        },
        execution_resources: resources,
      },
      fee_estimation,
    };
  }
  return {
    transaction_trace: {
      type: 'INVOKE',
      execute_invocation:
        outcome.invocation === undefined
          ? { revert_reason: outcome.revertReason }
          : invocationJson(outcome.invocation, outcome.usage),
      ...(outcome.feeTransfer === undefined
        ? {}
        : { fee_transfer_invocation: invocationJson(outcome.feeTransfer, { l2: 0n }) }),
      execution_resources: resources,
    },
    fee_estimation,
  };
}

// ── broadcasted transactions (simulate, estimate) ─────────────────────────────

const TX_VERSIONS = new Set(['0x3', '0x100000000000000000000000000000003']);

/**
 * A BROADCASTED_TXN the sandbox can run; a DECLARE is a valid one it cannot, so it is error 41 at
 * its index. With `validate`, the v3 fields that make its hash are read too (the spec requires
 * them; without validation they are not needed, and a client that leaves them out is let be).
 */
function readBroadcasted(value: unknown, index: number, validate: boolean): SimulatedTransaction {
  const tx = objectParam(value, `transactions[${index}]`);
  const read = readBroadcastedBody(tx, index);
  if (!validate) return read;
  const fields = readV3Fields(tx, `transactions[${index}]`);
  if (read.type === 'INVOKE') {
    const deploymentData = feltListParam(
      tx.account_deployment_data ?? [],
      `transactions[${index}].account_deployment_data`,
      64,
    );
    return {
      ...read,
      validation: {
        signature: fields.signature,
        hash: (address) =>
          invokeTransactionHash(
            address,
            read.calldata,
            deploymentData,
            fields,
            SANDBOX_CHAIN_ID_HEX,
          ),
      },
    };
  }
  return {
    ...read,
    validation: {
      signature: fields.signature,
      hash: (address) =>
        deployAccountTransactionHash(
          address,
          read.classHash,
          read.salt,
          read.constructorCalldata,
          fields,
          SANDBOX_CHAIN_ID_HEX,
        ),
    },
  };
}

function readBroadcastedBody(tx: Record<string, unknown>, index: number): SimulatedTransaction {
  if (typeof tx.version !== 'string' || !TX_VERSIONS.has(tx.version.toLowerCase())) {
    throw invalidParams(
      `transactions[${index}].version must be 0x3 or 0x100000000000000000000000000000003 (v3, the only version of starknet-specs v0.10.0)`,
    );
  }
  if (tx.type === 'INVOKE') {
    return {
      type: 'INVOKE',
      sender: feltParam(tx.sender_address, `transactions[${index}].sender_address`),
      calldata: feltListParam(tx.calldata, `transactions[${index}].calldata`, MAX_CALLDATA),
    };
  }
  if (tx.type === 'DEPLOY_ACCOUNT') {
    return {
      type: 'DEPLOY_ACCOUNT',
      classHash: feltParam(tx.class_hash, `transactions[${index}].class_hash`),
      salt: feltParam(tx.contract_address_salt, `transactions[${index}].contract_address_salt`),
      constructorCalldata: feltListParam(
        tx.constructor_calldata,
        `transactions[${index}].constructor_calldata`,
        64,
      ),
    };
  }
  if (tx.type === 'DECLARE')
    throw executionError(
      index,
      'the sandbox chain does not declare classes: its contracts are built in',
    );
  throw invalidParams(`transactions[${index}].type must be INVOKE, DEPLOY_ACCOUNT or DECLARE`);
}

function readTransactions(
  value: unknown,
  name: string,
  flags: Set<string>,
): SimulatedTransaction[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_SIMULATED)
    throw invalidParams(`${name} must hold 1 to ${MAX_SIMULATED} transactions`);
  return value.map((tx, index) => readBroadcasted(tx, index, !flags.has('SKIP_VALIDATE')));
}

/**
 * simulation_flags → the set named; -32602 for a flag that is not `allowed` (an unknown one, or
 * RETURN_INITIAL_READS, which starknet-specs adds in 0.10.1: this node serves 0.10.0).
 */
function readFlags(value: unknown, allowed: readonly string[]): Set<string> {
  if (!Array.isArray(value))
    throw invalidParams('simulation_flags must be an array (it is a required param)');
  if (value.length > 8) throw invalidParams('simulation_flags holds at most 8 flags');
  const flags = new Set<string>();
  value.forEach((flag, index) => {
    if (typeof flag !== 'string' || !allowed.includes(flag)) {
      throw invalidParams(
        `simulation_flags[${index}] must be one of ${allowed.join(', ')} (starknet-specs v0.10.0${typeof flag === 'string' && flag === 'RETURN_INITIAL_READS' ? '; RETURN_INITIAL_READS comes with 0.10.1' : ''})`,
      );
    }
    flags.add(flag);
  });
  return flags;
}

/** The simulation itself; transactions that cannot run (or do not validate) are error 41 at their index. */
function simulate(
  chain: Chain,
  transactions: SimulatedTransaction[],
  options: { chargeFee: boolean },
): SimulationOutcome[] {
  try {
    return chain.simulate(transactions, options);
  } catch (error) {
    if (error instanceof SimulationFailure) throw executionError(error.index, error.message);
    throw error;
  }
}

// ── events ────────────────────────────────────────────────────────────────────

function readKeys(value: unknown): Array<Set<bigint>> {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidParams('filter.keys must be an array of arrays of felts');
  let total = 0;
  if (value.length > EVENTS_LIMITS.maxKeyPositions) throw specError('TOO_MANY_KEYS_IN_FILTER');
  return value.map((position, index) => {
    if (!Array.isArray(position))
      throw invalidParams(`filter.keys[${index}] must be an array of felts`);
    total += position.length;
    if (total > EVENTS_LIMITS.maxKeys) throw specError('TOO_MANY_KEYS_IN_FILTER');
    return new Set(position.map((key, i) => feltParam(key, `filter.keys[${index}][${i}]`)));
  });
}

function getEvents(chain: Chain, params: Record<string, unknown>): Record<string, unknown> {
  const filter = objectParam(params.filter, 'filter');
  const chunkSize = filter.chunk_size;
  if (typeof chunkSize !== 'number' || !Number.isSafeInteger(chunkSize) || chunkSize < 1)
    throw invalidParams('filter.chunk_size must be a positive integer');
  if (chunkSize > EVENTS_LIMITS.maxChunkSize) throw specError('PAGE_SIZE_TOO_BIG');
  const keys = readKeys(filter.keys);
  const address =
    filter.address === undefined ? undefined : feltParam(filter.address, 'filter.address');
  const from =
    filter.from_block === undefined
      ? 0
      : blockNumberOf(resolveBlockId(chain, filter.from_block, 'filter.from_block'));
  const to =
    filter.to_block === undefined
      ? chain.latestBlock().number
      : blockNumberOf(resolveBlockId(chain, filter.to_block, 'filter.to_block'), true);
  let start = { block: from, event: 0 };
  if (filter.continuation_token !== undefined) {
    const token =
      typeof filter.continuation_token === 'string'
        ? parseContinuationToken(filter.continuation_token)
        : undefined;
    if (token === undefined || token.block < from || token.block > Math.max(to, from))
      throw specError('INVALID_CONTINUATION_TOKEN');
    start = token;
  }
  if (from > to) return { events: [] };
  return eventsChunk(chain.ledger, {
    fromBlock: from,
    toBlock: to,
    address,
    keys,
    chunkSize,
    start,
  });
}

/** The block number a BLOCK_ID names in an events filter; pre_confirmed (empty) counts as the latest as an upper bound. */
function blockNumberOf(resolved: ResolvedBlock, upper = false): number {
  if (resolved.kind === 'block') return resolved.block.number;
  return upper ? resolved.latest.number : resolved.latest.number + 1;
}

/** The node's chain and blocks, and the transactions in them (spec version, chain id, blocks, transactions, statuses, receipts). */
function blockMethods(chain: Chain): MethodTable {
  return {
    starknet_specVersion: { params: [], handler: () => SPEC_VERSION },
    starknet_chainId: { params: [], handler: () => SANDBOX_CHAIN_ID_HEX },
    starknet_syncing: { params: [], handler: () => false },
    starknet_blockNumber: { params: [], handler: () => chain.latestBlock().number },
    starknet_blockHashAndNumber: {
      params: [],
      handler: () => {
        const latest = chain.latestBlock();
        return { block_hash: hex(latest.hash), block_number: latest.number };
      },
    },

    starknet_getBlockWithTxHashes: {
      params: ['block_id'],
      handler: (params) => blockOf(chain, params, 'hashes'),
    },
    starknet_getBlockWithTxs: {
      params: ['block_id'],
      handler: (params) => blockOf(chain, params, 'transactions'),
    },
    starknet_getBlockWithReceipts: {
      params: ['block_id'],
      handler: (params) => blockOf(chain, params, 'receipts'),
    },
    starknet_getBlockTransactionCount: {
      params: ['block_id'],
      handler: (params) => {
        const resolved = resolveBlockId(chain, params.block_id, 'block_id');
        return resolved.kind === 'pre_confirmed' ? 0 : resolved.block.transactions.length;
      },
    },

    starknet_getTransactionByHash: {
      params: ['transaction_hash'],
      handler: (params) => {
        const tx = visibleTransaction(chain, params);
        return {
          transaction_hash: hex(tx.hash),
          ...transactionJson(tx, chain.ledger.block(tx.blockNumber) as BlockRecord),
        };
      },
    },
    starknet_getTransactionByBlockIdAndIndex: {
      params: ['block_id', 'index'],
      handler: (params) => {
        const resolved = resolveBlockId(chain, params.block_id, 'block_id');
        const index = params.index;
        if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0)
          throw invalidParams('index must be a non-negative integer');
        const hash = resolved.kind === 'block' ? resolved.block.transactions[index] : undefined;
        if (hash === undefined || resolved.kind !== 'block') throw specError('INVALID_TXN_INDEX');
        const tx = chain.ledger.transaction(hash) as TransactionRecord;
        return { transaction_hash: hex(tx.hash), ...transactionJson(tx, resolved.block) };
      },
    },
    starknet_getTransactionStatus: {
      params: ['transaction_hash'],
      handler: (params) => {
        const tx = visibleTransaction(chain, params);
        return {
          finality_status: 'ACCEPTED_ON_L2',
          execution_status: tx.status,
          ...(tx.status === 'REVERTED' ? { failure_reason: tx.revertReason } : {}),
        };
      },
    },
    starknet_getTransactionReceipt: {
      params: ['transaction_hash'],
      handler: (params) => receiptJson(visibleTransaction(chain, params), true),
    },
  };
}

/** The state: calls, classes, nonces, storage and events. */
function stateMethods(chain: Chain): MethodTable {
  return {
    starknet_call: {
      params: ['request', 'block_id'],
      handler: (params) => {
        const request = objectParam(params.request, 'request');
        checkStateBlock(chain, params.block_id);
        const to = feltParam(request.contract_address, 'request.contract_address');
        const selector = feltParam(request.entry_point_selector, 'request.entry_point_selector');
        const calldata = feltListParam(request.calldata ?? [], 'request.calldata', MAX_CALLDATA);
        try {
          return chain.call(to, selector, calldata).map(hex);
        } catch (error) {
          if (error instanceof ContractNotFound) throw specError('CONTRACT_NOT_FOUND');
          // the called contract lacks the entry point: 21; one deeper in the call is a revert like any other
          if (error instanceof EntryPointNotFound && error.frames.length === 1)
            throw specError('ENTRYPOINT_NOT_FOUND');
          if (error instanceof Revert)
            throw specError('CONTRACT_ERROR', { revert_error: error.reason });
          throw error;
        }
      },
    },

    starknet_getClassHashAt: {
      params: ['block_id', 'contract_address'],
      handler: (params) => {
        checkStateBlock(chain, params.block_id);
        const classHash = chain.classHashAt(feltParam(params.contract_address, 'contract_address'));
        if (classHash === undefined) throw specError('CONTRACT_NOT_FOUND');
        return hex(classHash);
      },
    },
    starknet_getClassAt: {
      params: ['block_id', 'contract_address'],
      handler: (params) => {
        checkStateBlock(chain, params.block_id);
        const classHash = chain.classHashAt(feltParam(params.contract_address, 'contract_address'));
        const contractClass = classHash === undefined ? undefined : contractClassOf(classHash);
        if (contractClass === undefined) throw specError('CONTRACT_NOT_FOUND');
        return contractClass;
      },
    },
    starknet_getClass: {
      params: ['block_id', 'class_hash'],
      handler: (params) => {
        checkStateBlock(chain, params.block_id);
        const contractClass = contractClassOf(feltParam(params.class_hash, 'class_hash'));
        if (contractClass === undefined) throw specError('CLASS_HASH_NOT_FOUND');
        return contractClass;
      },
    },

    starknet_getNonce: {
      params: ['block_id', 'contract_address'],
      handler: (params) => {
        checkStateBlock(chain, params.block_id);
        const address = feltParam(params.contract_address, 'contract_address');
        if (chain.ledger.account(address) === undefined) throw specError('CONTRACT_NOT_FOUND');
        return hex(chain.ledger.nonce(address));
      },
    },
    starknet_getStorageAt: {
      params: ['contract_address', 'key', 'block_id'],
      handler: (params) => {
        const address = feltParam(params.contract_address, 'contract_address');
        const key = feltParam(params.key, 'key');
        checkStateBlock(chain, params.block_id);
        try {
          return hex(chain.storageAt(address, key));
        } catch (error) {
          if (error instanceof ContractNotFound) throw specError('CONTRACT_NOT_FOUND');
          throw error;
        }
      },
    },

    starknet_getEvents: { params: ['filter'], handler: (params) => getEvents(chain, params) },
  };
}

/** Fee estimates and simulations. */
function estimateMethods(chain: Chain): MethodTable {
  return {
    starknet_estimateFee: {
      params: ['request', 'simulation_flags', 'block_id'],
      handler: (params) => {
        const flags = readFlags(params.simulation_flags, ['SKIP_VALIDATE']);
        checkStateBlock(chain, params.block_id);
        const transactions = readTransactions(params.request, 'request', flags);
        // an estimate does not charge the fee: what it costs is the answer, not whether the sender can pay it
        const outcomes = simulate(chain, transactions, { chargeFee: false });
        // a transaction that reverts has no estimate (the spec: TRANSACTION_EXECUTION_ERROR)
        outcomes.forEach((outcome, index) => {
          if (outcome.revertReason !== undefined) throw executionError(index, outcome.revertReason);
        });
        return outcomes.map((outcome) => feeEstimationJson(chain, outcome));
      },
    },

    starknet_simulateTransactions: {
      params: ['block_id', 'transactions', 'simulation_flags'],
      handler: (params) => {
        checkStateBlock(chain, params.block_id);
        const flags = readFlags(params.simulation_flags, ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE']);
        const transactions = readTransactions(params.transactions, 'transactions', flags);
        return simulate(chain, transactions, { chargeFee: !flags.has('SKIP_FEE_CHARGE') }).map(
          (outcome) => simulationJson(chain, outcome),
        );
      },
    },
  };
}

/** Every Starknet JSON-RPC method the sandbox serves (docs/sandbox-chain.md "Starknet JSON-RPC served"). */
export function starknetMethods(chain: Chain): MethodTable {
  return { ...blockMethods(chain), ...stateMethods(chain), ...estimateMethods(chain) };
}
