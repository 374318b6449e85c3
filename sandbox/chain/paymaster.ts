/**
 * The SNIP-29 paymaster of the sandbox chain (docs/contracts.md C, docs/sandbox-chain.md), as
 * AVNU serves it: isAvailable, getSupportedTokens, buildTransaction and executeTransaction (types
 * invoke, deploy_and_invoke and deploy), trackingIdToLatestHash.
 *
 * Build returns SNIP-9 v2 outside-execution typed data (SNIP-12 revision 1, domain chain id
 * SN_SANDBOX, Caller = the forwarder, a fresh random Nonce, time bounds) holding the user's calls
 * and, in default fee mode, one last gas-token `transfer(forwarder, suggested_max_fee_in_gas_token)`.
 * It remembers what it built under the Nonce (bounded, until execute_before). Execute accepts only
 * that typed data: it is compared field by field with the stored copy BEFORE anything is hashed,
 * so untrusted typed data is never hashed (docs/execution.md "SNIP-12 hashing cost"); the
 * signature is then checked over the stored copy's message hash against the account's key (the
 * deployed account's, or the deployment's for deploy_and_invoke), both y parities.
 *
 * Build simulates the calls, as AVNU does: the user's calls and, in default fee mode, the fee
 * transfer run as the account would run them (deployed first for deploy_and_invoke) on a view that
 * is thrown away; a call list that would revert is refused there with 156
 * TRANSACTION_EXECUTION_ERROR, `data.execution_error` the revert reason, and nothing is remembered
 * or relayed (docs/sandbox-chain.md "SNIP-29 paymaster"). A revert at execution is still possible (the
 * state moved between build and execute, or the revertNext knob): it yields a REVERTED receipt.
 *
 * A deploy-only transaction (type deploy) has nothing signed that could carry a fee: the
 * paymaster pays it in either fee mode (sponsored still needs the API key); its `fee` says what it
 * costs. Execute needs no build before it.
 *
 * Answers follow the SNIP-29 schemas: felts canonical (no leading zeros), time bounds as decimal
 * strings, errors with the spec's messages.
 *
 * Knobs (set through the app's /sandbox routes): `tamper` makes the next builds return typed data
 * whose calls differ from the request (starknet.js's safety check must refuse them);
 * `gasPricesAfterNextBuild` moves the gas price right after the next build, so that build's
 * signed maximum can fall short at execution (154 MAX_AMOUNT_TOO_LOW).
 *
 * The methods are modules registered on a small root (paymaster/root.ts, docs/architecture.md
 * "Layout"): paymaster/status.ts, build.ts and execute.ts; what they read from a request is
 * paymaster/params.ts and deployment.ts, the fees paymaster/fees.ts, the refusals errors.ts.
 */
import type { Chain } from './chain.js';
import type { MethodTable } from './jsonrpc.js';
import { registerBuild } from './paymaster/build.js';
import { registerExecute } from './paymaster/execute.js';
import { createRoot, type PaymasterKnobs } from './paymaster/root.js';
import { registerStatus } from './paymaster/status.js';

export type { PaymasterKnobs, TamperMode } from './paymaster/root.js';

interface PaymasterOptions {
  chain: Chain;
  /** when set, sponsored mode needs `x-paymaster-api-key` equal to it (as AVNU's does) */
  apiKey?: string;
}

export function createPaymaster(options: PaymasterOptions): {
  methods: MethodTable;
  knobs: PaymasterKnobs;
  builds: () => number;
} {
  return createRoot(options, [registerStatus, registerBuild, registerExecute]);
}
