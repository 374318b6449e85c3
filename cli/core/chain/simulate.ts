/**
 * Simulating a paymaster transaction before confirming it (docs/execution.md "Simulating before
 * confirming"): a plain v3 INVOKE from the account with SKIP_VALIDATE carrying exactly the calls
 * of the built typed data (the user's calls and the paymaster's fee transfer), preceded by the
 * account's DEPLOY_ACCOUNT when it is not deployed yet. The multicall calldata is built here from
 * the typed data's selectors (starknet.js would hash a hex selector passed as an entrypoint again).
 *
 * The result is what the transaction would do to the account: balance changes from Transfer
 * events of registry tokens (both layouts), the revert reason if it would revert, and the fee
 * as "at most the signed maximum" — the fee transfer moves the maximum in the simulation (the
 * forwarder refunds the rest on execution), so it is never shown as a balance change.
 */
import type { AccountInvocations } from 'starknet';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { Erc20Transfer } from '../../../shared/erc20.js';
import type { ExecutionAccount } from './account.js';
import type { ChainCall } from './calls.js';
import { mapChainError } from './errors.js';
import {
  type PreparedExecution,
  type PreparedFee,
  prepareExecution,
  type PrepareOptions,
  type ProgressOptions,
  REVERT_REASON_MAX,
} from './execute.js';
import { deploymentData } from './reads.js';
import { inScope } from './scope.js';
import { type BalanceChange, summarizeTransfers } from './transfers.js';
import { printable } from '../../../shared/printable.js';

export interface SimulationResult {
  status: 'SUCCEEDED' | 'REVERTED';
  revertReason: string | null;
  /** net per token for the account, the fee excluded */
  balanceChanges: BalanceChange[];
  /** registry-token transfers to or from the account, the fee transfer included */
  transfers: Erc20Transfer[];
  /** the fee: at most `maxInGasToken` in default mode (show it as "fee ≤ max"), none when sponsored */
  fee: PreparedFee;
  /** the transaction's network fee in fri, as the node estimates it (paid by the paymaster) */
  networkFee: bigint;
  /** what was simulated: hand it to executePrepared to sign and send exactly this */
  prepared: PreparedExecution;
}

interface TraceInvocation {
  contract_address?: string;
  calls?: TraceInvocation[];
  events?: Array<{ order?: number; keys: string[]; data: string[] }>;
  revert_reason?: string;
}

interface SimulatedTransaction {
  transaction_trace?: { type?: string; execute_invocation?: TraceInvocation };
  fee_estimation?: { overall_fee?: string };
}

const ZERO_BOUNDS = {
  l1_gas: { max_amount: 0n, max_price_per_unit: 0n },
  l2_gas: { max_amount: 0n, max_price_per_unit: 0n },
  l1_data_gas: { max_amount: 0n, max_price_per_unit: 0n },
};

const COMMON = {
  signature: [],
  resourceBounds: ZERO_BOUNDS,
  tip: 0n,
  paymasterData: [],
  accountDeploymentData: [],
  nonceDataAvailabilityMode: 'L1',
  feeDataAvailabilityMode: 'L1',
  version: '0x3',
} as const;

/** Every event of an invocation tree with its emitter, in the trace's global order (iterative). */
function eventsOf(
  root: TraceInvocation,
): Array<{ event: { keys: string[]; data: string[] }; from: string; order: number }> {
  const out: Array<{ event: { keys: string[]; data: string[] }; from: string; order: number }> = [];
  const pending: TraceInvocation[] = [root];
  while (pending.length > 0) {
    const node = pending.pop() as TraceInvocation;
    for (const event of node.events ?? [])
      out.push({ event, from: node.contract_address ?? '0x0', order: event.order ?? out.length });
    for (const child of node.calls ?? []) pending.push(child);
  }
  return out.sort((a, b) => a.order - b.order);
}

function multicall(prepared: PreparedExecution): string[] {
  const out: string[] = [String(prepared.outsideCalls.length)];
  for (const call of prepared.outsideCalls)
    out.push(call.to, call.selector, String(call.calldata.length), ...call.calldata);
  return out;
}

/** Simulates `prepared` (from prepareExecution): nothing is signed or sent. */
export async function simulatePrepared(
  ea: ExecutionAccount,
  prepared: PreparedExecution,
  options: ProgressOptions = {},
): Promise<SimulationResult> {
  return inScope(
    options.signal,
    async () => {
      const invocations: unknown[] = [];
      let nonce: bigint;
      if (prepared.kind === 'deploy_and_invoke') {
        const deployment = deploymentData(ea.publicKey);
        invocations.push({
          type: 'DEPLOY_ACCOUNT',
          classHash: deployment.class_hash,
          constructorCalldata: deployment.calldata,
          addressSalt: deployment.salt,
          contractAddress: deployment.address,
          nonce: 0n,
          ...COMMON,
        });
        nonce = 1n;
      } else {
        // read with the deployed check the build relied on (facts.ts); a build made elsewhere reads it now
        nonce = prepared.accountNonce ?? BigInt(await ea.provider.getNonceForAddress(ea.address));
      }
      invocations.push({
        type: 'INVOKE',
        contractAddress: ea.address,
        calldata: multicall(prepared),
        nonce,
        ...COMMON,
      });
      const response = (await ea.provider.channel.simulateTransaction(
        invocations as AccountInvocations,
        { skipValidate: true, skipFeeCharge: true },
      )) as unknown as SimulatedTransaction[];
      const invoke = Array.isArray(response) ? response.at(-1) : undefined;
      const execution = invoke?.transaction_trace?.execute_invocation;
      if (execution === undefined)
        throw new AppError(
          ErrorCode.CHAIN_ERROR,
          'the Starknet RPC answered a simulation without an execute_invocation',
        );
      const feeParty =
        prepared.fee.mode === 'default' && prepared.feeRecipient !== undefined
          ? { recipient: prepared.feeRecipient, gasToken: prepared.fee.gasToken }
          : undefined;
      const reverted = typeof execution.revert_reason === 'string';
      const summary = reverted
        ? { transfers: [], balanceChanges: [] }
        : summarizeTransfers(eventsOf(execution), ea.address, ea.network, feeParty);
      return {
        status: reverted ? 'REVERTED' : 'SUCCEEDED',
        // the chain's words, made printable where they enter (shared/printable.ts)
        revertReason: reverted
          ? printable(execution.revert_reason ?? '', REVERT_REASON_MAX) ||
            'reverted (no reason given)'
          : null,
        balanceChanges: summary.balanceChanges,
        transfers: summary.transfers,
        fee: prepared.fee,
        networkFee: BigInt(invoke?.fee_estimation?.overall_fee ?? '0'),
        prepared,
      };
    },
    mapChainError,
  );
}

/** prepareExecution (the paymaster build, checked; nothing signed) then simulatePrepared. */
export async function simulateCalls(
  ea: ExecutionAccount,
  calls: readonly ChainCall[],
  options: PrepareOptions,
): Promise<SimulationResult> {
  const prepared = await prepareExecution(ea, calls, options);
  return simulatePrepared(ea, prepared, options);
}
