/**
 * The client's chain and execution library (docs/architecture.md "Execution"): plain functions
 * taking `{signal, onProgress}` and returning plain data (bigint base units); nothing here writes
 * to stdout or stderr. The headless commands and the TUI both build on it.
 */
export {
  type ChainReader,
  type ChainReaderOptions,
  createChainReader,
  createExecutionAccount,
  type ExecutionAccount,
  type ExecutionAccountOptions,
} from './account.js';
export {
  type AccountFacts,
  FACTS_MAX_AGE_MS,
  prefetchAccountFacts,
  takeAccountFacts,
} from './facts.js';
export { buildApproveCall, buildTransferCall, type ChainCall } from './calls.js';
export { parseAddress } from '../../../shared/tokens.js';
export {
  executeCalls,
  executePrepared,
  type ExecuteOptions,
  type ExpectedOutflow,
  type ExecutionProgress,
  type ExecutionReceipt,
  type FeeModeOption,
  type OutsideCallData,
  prepareExecution,
  type PreparedExecution,
  type PreparedFee,
  type PrepareOptions,
  type ProgressOptions,
  receiptToJson,
} from './execute.js';
export {
  type AccountDeploymentData,
  type CallOptions,
  deploymentData,
  isDeployed,
  readBalances,
  type TokenBalance,
} from './reads.js';
export { RemoteSigner, type SignHash, type SignTypedData } from './signer.js';
export type { BalanceChange } from './transfers.js';
export { type SimulationResult, simulateCalls, simulatePrepared } from './simulate.js';
