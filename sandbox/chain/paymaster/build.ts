/**
 * paymaster_buildTransaction (docs/sandbox-chain.md "SNIP-29 paymaster"): SNIP-9 v2 outside-execution
 * typed data (SNIP-12 revision 1, domain chain id SN_SANDBOX, Caller = the forwarder, a fresh
 * random Nonce, time bounds) holding the user's calls and, in default fee mode, one last gas-token
 * `transfer(forwarder, suggested_max_fee_in_gas_token)`; remembered under the Nonce for execute.
 * The calls are simulated first, as AVNU does: a call list that would revert is refused with 156
 * TRANSACTION_EXECUTION_ERROR and nothing is remembered. A deploy-only transaction is priced only.
 */
import { OutsideExecutionTypesV2 } from 'starknet';
import { SELECTOR, selectorOf, u256Felts } from '../../../shared/erc20.js';
import { ARGENT_X_V050_CLASS_HASH } from '../../../shared/starknet.js';
import type { Chain, OutsideCall } from '../chain.js';
import { FORWARDER_ADDRESS } from '../contracts.js';
import { hex } from '../executor.js';
import { gasUsage } from '../gas.js';
import { objectParam } from '../jsonrpc.js';
import { type Deployment, readDeployment } from './deployment.js';
import { refuse } from './errors.js';
import { feeOf } from './fees.js';
import {
  address,
  type FeeModeParam,
  parametersJson,
  readCalls,
  readRequest,
  readTimeBounds,
} from './params.js';
import { type Build, nowSeconds, type PaymasterModule, randomFelt128 } from './root.js';
import { tamper } from './tamper.js';

const noTimeBounds = (parameters: Record<string, unknown>): boolean =>
  parameters.time_bounds === undefined || parameters.time_bounds === null;

/** A deploy-only transaction: nothing is signed, so nothing is remembered; its fee says what it costs. */
function buildDeploy(
  chain: Chain,
  transaction: Record<string, unknown>,
  parameters: Record<string, unknown>,
  feeMode: FeeModeParam,
): Record<string, unknown> {
  const deployment = readDeployment(transaction.deployment, undefined);
  if (chain.classHashAt(deployment.address) !== undefined)
    throw refuse(
      'INVALID_DEPLOYMENT_DATA',
      `account ${hex(deployment.address)} is already deployed`,
    );
  const bounds = noTimeBounds(parameters)
    ? undefined
    : readTimeBounds(parameters, nowSeconds(chain));
  const { fee } = feeOf(chain, gasUsage([], true), feeMode);
  return {
    type: 'deploy',
    deployment: deployment.json,
    parameters: parametersJson(feeMode, bounds),
    fee,
  };
}

/** The invoking account and its calls; for deploy_and_invoke, its deployment (not yet deployed). */
function readInvoke(
  chain: Chain,
  transaction: Record<string, unknown>,
  type: 'invoke' | 'deploy_and_invoke',
): { user: bigint; calls: OutsideCall[]; deployment: Deployment | undefined } {
  const invoke = objectParam(transaction.invoke, 'transaction.invoke');
  const user = address(invoke.user_address, 'invoke.user_address');
  const calls = readCalls(invoke.calls);
  if (type === 'deploy_and_invoke') {
    const deployment = readDeployment(transaction.deployment, user);
    if (chain.classHashAt(user) !== undefined)
      throw refuse(
        'INVALID_DEPLOYMENT_DATA',
        `account ${hex(user)} is already deployed: send an invoke`,
      );
    return { user, calls, deployment };
  }
  if (chain.ledger.account(user) === undefined)
    throw refuse(
      'INVALID_ADDRESS',
      `account ${hex(user)} is not deployed: send deploy_and_invoke with its deployment data`,
    );
  return { user, calls, deployment: undefined };
}

/** The calls as they will run (the fee transfer appended in default mode), the fee and the build's fee mode. */
function withFee(
  chain: Chain,
  calls: OutsideCall[],
  feeMode: FeeModeParam,
  deploys: boolean,
): { outsideCalls: OutsideCall[]; fee: Record<string, string>; buildFee: Build['feeMode'] } {
  // the fee covers the calls plus, in default mode, the fee transfer appended below
  const feeCall = { to: 0n, selector: 0n, calldata: [] };
  const usage = gasUsage(feeMode.mode === 'default' ? [...calls, feeCall] : calls, deploys);
  const { fee, max } = feeOf(chain, usage, feeMode);
  if (feeMode.mode !== 'default')
    return { outsideCalls: [...calls], fee, buildFee: { mode: 'sponsored' } };
  const transfer = {
    to: BigInt(feeMode.token.address),
    selector: SELECTOR.transfer,
    calldata: [FORWARDER_ADDRESS, ...u256Felts(max).map(BigInt)],
  };
  return {
    outsideCalls: [...calls, transfer],
    fee,
    buildFee: { mode: 'default', token: feeMode.token, max },
  };
}

/** The SNIP-9 v2 typed data of `calls` (the tamper knob applied), and the calls it says. */
function outsideExecution(
  calls: OutsideCall[],
  bounds: { after: bigint; before: bigint },
  nonce: string,
  knobs: Parameters<typeof tamper>[0],
): { typedData: Record<string, unknown>; executed: OutsideCall[] } {
  const domain: Record<string, unknown> = {
    name: 'Account.execute_from_outside',
    version: '2',
    chainId: 'SN_SANDBOX',
    revision: '1',
  };
  const message: Record<string, unknown> = {
    Caller: hex(FORWARDER_ADDRESS),
    Nonce: nonce,
    'Execute After': hex(bounds.after),
    'Execute Before': hex(bounds.before),
    Calls: calls.map((call) => ({
      To: hex(call.to),
      Selector: hex(call.selector),
      Calldata: call.calldata.map(hex),
    })),
  };
  tamper(knobs, message, domain);
  const typedData = {
    types: structuredClone(OutsideExecutionTypesV2),
    primaryType: 'OutsideExecution',
    domain,
    message,
  };
  // what executes is what the typed data says (tampered or not): keep the two in step
  const said = message.Calls as Array<{ To: string; Selector: string; Calldata: string[] }>;
  const executed = said.map((call) => ({
    to: BigInt(call.To),
    // a selector that is not hex is a name, hashed, as the SNIP-12 hash reads it
    selector: /^0x/i.test(call.Selector) ? BigInt(call.Selector) : selectorOf(call.Selector),
    calldata: call.Calldata.map((felt) => BigInt(felt)),
  }));
  return { typedData, executed };
}

export const registerBuild: PaymasterModule = (root, deps) => {
  const { chain, knobs, builds } = deps;
  root.method('paymaster_buildTransaction', {
    params: ['transaction', 'parameters'],
    handler: (params, context) => {
      const request = readRequest(params, context, { network: chain.network, apiKey: deps.apiKey });
      const { transaction, parameters, type, feeMode } = request;
      if (type === 'deploy') return buildDeploy(chain, transaction, parameters, feeMode);
      const bounds = readTimeBounds(parameters, nowSeconds(chain));
      const { user, calls, deployment } = readInvoke(chain, transaction, type);
      const deploys = type === 'deploy_and_invoke';
      const { outsideCalls, fee, buildFee } = withFee(chain, calls, feeMode, deploys);
      const revert = chain.outsideRevert(
        user,
        outsideCalls,
        deployment === undefined
          ? undefined
          : { classHash: BigInt(ARGENT_X_V050_CLASS_HASH), publicKey: deployment.publicKey },
      );
      if (revert !== undefined) throw refuse('TRANSACTION_EXECUTION_ERROR', revert);

      const nonce = randomFelt128();
      const { typedData, executed } = outsideExecution(outsideCalls, bounds, nonce, knobs);
      builds.remember(nonce, {
        type,
        user,
        typedData,
        calls: executed,
        deployment: deployment?.json,
        publicKey: deployment?.publicKey,
        feeMode: buildFee,
        executeAfter: bounds.after,
        executeBefore: bounds.before,
      });
      if (knobs.gasPricesAfterNextBuild !== undefined) {
        chain.gasPrices = knobs.gasPricesAfterNextBuild;
        knobs.gasPricesAfterNextBuild = undefined;
      }
      return {
        type,
        typed_data: typedData,
        parameters: parametersJson(feeMode, noTimeBounds(parameters) ? undefined : bounds),
        fee,
        ...(deployment === undefined ? {} : { deployment: deployment.json }),
      };
    },
  });
};
