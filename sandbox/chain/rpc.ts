/**
 * The Starknet JSON-RPC (spec 0.10) reads starknet.js uses (docs/execution.md "Starknet JSON-RPC
 * an emulator must answer"), served over the sandbox chain. Anything else is -32601 naming what
 * is served. Errors use the spec's codes: 20 CONTRACT_NOT_FOUND, 24 BLOCK_NOT_FOUND,
 * 29 TXN_HASH_NOT_FOUND, 40 CONTRACT_ERROR, 41 TRANSACTION_EXECUTION_ERROR.
 *
 * Only the latest state exists: block ids are the tags latest / pre_confirmed / l1_accepted or
 * the current block's number or hash.
 */
import { selectorOf } from '../../shared/erc20.js';
import { blockHashOf, type Chain, ContractNotFound, SimulationFailure, type SimulatedTransaction, type SimulationOutcome } from './chain.js';
import { hex, type Invocation, Revert } from './executor.js';
import { feltListParam, feltParam, invalidParams, type MethodTable, objectParam, RpcFailure, stringParam } from './jsonrpc.js';
import type { TransactionRecord } from './ledger.js';

export const SPEC_VERSION = '0.10.4';
export const SANDBOX_CHAIN_ID_HEX = `0x${Buffer.from('SN_SANDBOX').toString('hex')}`;

const MAX_CALLDATA = 4_096;
const MAX_SIMULATED = 8;

const contractNotFound = (): RpcFailure => new RpcFailure(20, 'Contract not found');
const txNotFound = (): RpcFailure => new RpcFailure(29, 'Transaction hash not found');

function checkBlockId(chain: Chain, value: unknown): void {
  if (value === undefined || value === 'latest' || value === 'pre_confirmed' || value === 'l1_accepted') return;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const block = value as Record<string, unknown>;
    if ('block_number' in block && block.block_number === chain.ledger.blockNumber) return;
    if ('block_hash' in block) {
      const given = feltParam(block.block_hash, 'block_id.block_hash');
      const latest = chain.ledger.blockNumber;
      if (given === blockHashOf(latest)) return;
    }
    throw new RpcFailure(24, 'Block not found', 'the sandbox chain keeps only its latest state');
  }
  throw invalidParams('block_id must be a tag (latest, pre_confirmed, l1_accepted) or {block_number} / {block_hash}');
}

function visibleTransaction(chain: Chain, params: Record<string, unknown>): TransactionRecord {
  const hash = feltParam(params.transaction_hash, 'transaction_hash');
  const tx = chain.ledger.transaction(hash);
  if (tx === undefined || chain.now() < tx.visibleAt) throw txNotFound();
  return tx;
}

function receiptJson(tx: TransactionRecord): Record<string, unknown> {
  return {
    type: 'INVOKE',
    transaction_hash: hex(tx.hash),
    actual_fee: { amount: hex(tx.actualFee), unit: 'FRI' },
    execution_status: tx.status,
    finality_status: 'ACCEPTED_ON_L2',
    block_hash: hex(tx.blockHash),
    block_number: tx.blockNumber,
    messages_sent: [],
    events: tx.events,
    execution_resources: { l1_gas: 0, l1_data_gas: Number(tx.l1DataGas), l2_gas: Number(tx.l2Gas) },
    ...(tx.status === 'REVERTED' ? { revert_reason: tx.revertReason } : {}),
  };
}

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
    events: node.events.map((event) => ({ order: event.order, keys: event.keys.map(hex), data: event.data.map(hex) })),
    messages: [],
    execution_resources: { l1_gas: 0, l2_gas: Number(gas.l2) },
    is_reverted: false,
  };
}

function simulationJson(chain: Chain, outcome: SimulationOutcome): Record<string, unknown> {
  const resources = { l1_gas: 0, l1_data_gas: Number(outcome.usage.l1Data), l2_gas: Number(outcome.usage.l2) };
  const prices = chain.gasPrices;
  const fee_estimation = {
    l1_gas_consumed: hex(outcome.usage.l1),
    l1_gas_price: hex(prices.l1),
    l1_data_gas_consumed: hex(outcome.usage.l1Data),
    l1_data_gas_price: hex(prices.l1Data),
    l2_gas_consumed: hex(outcome.usage.l2),
    l2_gas_price: hex(prices.l2),
    overall_fee: hex(outcome.fee),
    unit: 'FRI',
  };
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
      execute_invocation: outcome.invocation === undefined ? { revert_reason: outcome.revertReason } : invocationJson(outcome.invocation, outcome.usage),
      ...(outcome.feeTransfer === undefined ? {} : { fee_transfer_invocation: invocationJson(outcome.feeTransfer, { l2: 0n }) }),
      execution_resources: resources,
    },
    fee_estimation,
  };
}

function readSimulated(value: unknown, index: number): SimulatedTransaction {
  const tx = objectParam(value, `transactions[${index}]`);
  if (tx.version !== '0x3' && tx.version !== '0x100000000000000000000000000000003') {
    throw invalidParams(`transactions[${index}].version must be 0x3 (the sandbox simulates v3 transactions)`);
  }
  if (tx.type === 'INVOKE') {
    return { type: 'INVOKE', sender: feltParam(tx.sender_address, `transactions[${index}].sender_address`), calldata: feltListParam(tx.calldata, `transactions[${index}].calldata`, MAX_CALLDATA) };
  }
  if (tx.type === 'DEPLOY_ACCOUNT') {
    return {
      type: 'DEPLOY_ACCOUNT',
      classHash: feltParam(tx.class_hash, `transactions[${index}].class_hash`),
      salt: feltParam(tx.contract_address_salt, `transactions[${index}].contract_address_salt`),
      constructorCalldata: feltListParam(tx.constructor_calldata, `transactions[${index}].constructor_calldata`, 64),
    };
  }
  throw invalidParams(`transactions[${index}].type must be INVOKE or DEPLOY_ACCOUNT`);
}

export function starknetMethods(chain: Chain): MethodTable {
  return {
    starknet_specVersion: { params: [], handler: () => SPEC_VERSION },
    starknet_chainId: { params: [], handler: () => SANDBOX_CHAIN_ID_HEX },
    starknet_blockNumber: { params: [], handler: () => chain.ledger.blockNumber },
    starknet_blockHashAndNumber: {
      params: [],
      handler: () => ({ block_hash: hex(blockHashOf(chain.ledger.blockNumber)), block_number: chain.ledger.blockNumber }),
    },

    starknet_call: {
      params: ['request', 'block_id'],
      handler: (params) => {
        const request = objectParam(params.request, 'request');
        checkBlockId(chain, params.block_id);
        const to = feltParam(request.contract_address, 'request.contract_address');
        const selector = feltParam(request.entry_point_selector, 'request.entry_point_selector');
        const calldata = feltListParam(request.calldata ?? [], 'request.calldata', MAX_CALLDATA);
        try {
          return chain.call(to, selector, calldata).map(hex);
        } catch (error) {
          if (error instanceof ContractNotFound) throw contractNotFound();
          if (error instanceof Revert) throw new RpcFailure(40, 'Contract error', { revert_error: error.reason });
          throw error;
        }
      },
    },

    starknet_getClassHashAt: {
      params: ['block_id', 'contract_address'],
      handler: (params) => {
        checkBlockId(chain, params.block_id);
        const classHash = chain.classHashAt(feltParam(params.contract_address, 'contract_address'));
        if (classHash === undefined) throw contractNotFound();
        return hex(classHash);
      },
    },

    starknet_getNonce: {
      params: ['block_id', 'contract_address'],
      handler: (params) => {
        checkBlockId(chain, params.block_id);
        const address = feltParam(params.contract_address, 'contract_address');
        if (chain.ledger.account(address) === undefined) throw contractNotFound();
        return hex(chain.ledger.nonce(address));
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
      handler: (params) => receiptJson(visibleTransaction(chain, params)),
    },

    starknet_simulateTransactions: {
      params: ['block_id', 'transactions', 'simulation_flags'],
      handler: (params) => {
        checkBlockId(chain, params.block_id);
        if (!Array.isArray(params.transactions) || params.transactions.length === 0 || params.transactions.length > MAX_SIMULATED) {
          throw invalidParams(`transactions must hold 1 to ${MAX_SIMULATED} transactions`);
        }
        const flags = params.simulation_flags ?? [];
        if (!Array.isArray(flags) || flags.length > 4) throw invalidParams('simulation_flags must be an array');
        const named = flags.map((flag, i) => stringParam(flag, `simulation_flags[${i}]`, 40));
        if (!named.includes('SKIP_VALIDATE')) {
          throw new RpcFailure(41, 'Transaction execution error', {
            transaction_index: 0,
            execution_error: 'the sandbox chain simulates with SKIP_VALIDATE only (signatures are verified by its paymaster)',
          });
        }
        const transactions = params.transactions.map(readSimulated);
        try {
          return chain.simulate(transactions, { chargeFee: !named.includes('SKIP_FEE_CHARGE') }).map((outcome) => simulationJson(chain, outcome));
        } catch (error) {
          if (error instanceof SimulationFailure) {
            throw new RpcFailure(41, 'Transaction execution error', { transaction_index: error.index, execution_error: error.message });
          }
          throw error;
        }
      },
    },
  };
}
