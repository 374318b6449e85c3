/**
 * paymaster_executeTransaction (docs/sandbox-chain.md "SNIP-29 paymaster"): accepts only typed data the
 * build made. It is compared field by field with the stored copy BEFORE anything is hashed, so
 * untrusted typed data is never hashed (docs/execution.md "SNIP-12 hashing cost"); the signature
 * is then checked over the stored copy's message hash against the account's key (the deployed
 * account's, or the deployment's for deploy_and_invoke), both y parities. A deploy-only
 * transaction needs no build: the paymaster pays it in either fee mode.
 */
import { typedData as snip12 } from 'starknet';
import { ARGENT_X_V050_CLASS_HASH } from '../../../shared/starknet.js';
import type { Chain } from '../chain.js';
import { accountSignatureValid } from '../contracts.js';
import { hex } from '../executor.js';
import { feeInFri, friToToken, gasUsage } from '../gas.js';
import { feltListParam, feltParam, objectParam, RpcFailure, type RpcContext } from '../jsonrpc.js';
import { readDeployment } from './deployment.js';
import { PAYMASTER_ERROR, refuse } from './errors.js';
import { address, type FeeModeParam, readRequest } from './params.js';
import { sameTypedValue } from './typed-value.js';
import { type Build, nowSeconds, type PaymasterDeps, type PaymasterModule } from './root.js';

/** A deploy-only transaction: deployed now, paid by the paymaster. */
function executeDeploy(
  deps: PaymasterDeps,
  transaction: Record<string, unknown>,
): Record<string, unknown> {
  const { chain, tracking } = deps;
  const deployment = readDeployment(transaction.deployment, undefined);
  if (chain.classHashAt(deployment.address) !== undefined)
    throw refuse(
      'INVALID_DEPLOYMENT_DATA',
      `account ${hex(deployment.address)} is already deployed`,
    );
  const record = chain.executeRelayed({
    account: deployment.address,
    deployment: { classHash: BigInt(ARGENT_X_V050_CLASS_HASH), publicKey: deployment.publicKey },
    messageHash: deployment.address,
  });
  return { transaction_hash: hex(record.hash), tracking_id: tracking.track(record.hash) };
}

/** The request as build and execute read it; at execute, a gas token the build did not take is not what was built. */
function readExecuteRequest(
  deps: PaymasterDeps,
  params: Record<string, unknown>,
  context: RpcContext,
): ReturnType<typeof readRequest> {
  try {
    return readRequest(params, context, { network: deps.chain.network, apiKey: deps.apiKey });
  } catch (error) {
    if (error instanceof RpcFailure && error.code === PAYMASTER_ERROR.TOKEN_NOT_SUPPORTED)
      throw refuse('TRANSACTION_EXECUTION_ERROR', 'fee_mode differs from the one built');
    throw error;
  }
}

/** The build this execute names (by its Nonce), proven to be what was built for this account and fee mode. */
function matchBuild(
  deps: PaymasterDeps,
  transaction: Record<string, unknown>,
  type: string,
  feeMode: FeeModeParam,
): { build: Build; nonce: string; user: bigint; signature: bigint[] } {
  const invoke = objectParam(transaction.invoke, 'transaction.invoke');
  const user = address(invoke.user_address, 'invoke.user_address');
  const typed = objectParam(invoke.typed_data, 'invoke.typed_data');
  const message = objectParam(typed.message, 'typed_data.message');
  const nonce = hex(feltParam(message.Nonce, 'typed_data.message.Nonce'));
  const signature = feltListParam(invoke.signature, 'invoke.signature', 8);

  const build = deps.builds.get(nonce);
  if (build === undefined) {
    throw refuse(
      'TRANSACTION_EXECUTION_ERROR',
      'no transaction was built with this nonce (never built, expired, or already executed): build it again',
    );
  }
  if (build.user !== user || build.type !== type || !sameTypedValue(typed, build.typedData)) {
    throw refuse(
      'TRANSACTION_EXECUTION_ERROR',
      'typed_data is not the transaction built for this nonce and account',
    );
  }
  if (
    build.type === 'deploy_and_invoke' &&
    !sameTypedValue(transaction.deployment, build.deployment)
  ) {
    throw refuse('INVALID_DEPLOYMENT_DATA', 'deployment differs from the one built');
  }
  const sameMode =
    build.feeMode.mode === feeMode.mode &&
    (feeMode.mode !== 'default' ||
      (build.feeMode.mode === 'default' && build.feeMode.token.address === feeMode.token.address));
  if (!sameMode) throw refuse('TRANSACTION_EXECUTION_ERROR', 'fee_mode differs from the one built');
  return { build, nonce, user, signature };
}

/**
 * The account would refuse an outside execution out of its time bounds (SNIP-29 lists no
 * time-bounds error for execute: the execution fails); an expired build is forgotten.
 */
function checkTimeBounds(deps: PaymasterDeps, build: Build, nonce: string): void {
  const now = nowSeconds(deps.chain);
  if (now >= build.executeBefore) {
    deps.builds.forget(nonce);
    throw refuse(
      'TRANSACTION_EXECUTION_ERROR',
      'the transaction expired (execute_before has passed): build it again',
    );
  }
  if (now <= build.executeAfter)
    throw refuse('TRANSACTION_EXECUTION_ERROR', 'too early: execute_after has not passed');
}

/** The key the signature must verify against; the message hash of the stored (trusted) copy. */
function checkSignature(
  deps: PaymasterDeps,
  build: Build,
  nonce: string,
  user: bigint,
  signature: bigint[],
): { publicKey: bigint; messageHash: bigint } {
  const { chain } = deps;
  const account = chain.ledger.account(user);
  const publicKey = build.type === 'deploy_and_invoke' ? build.publicKey : account?.publicKey;
  if (build.type === 'invoke' && account === undefined)
    throw refuse('TRANSACTION_EXECUTION_ERROR', `account ${hex(user)} is not deployed`);
  if (build.type === 'deploy_and_invoke' && chain.classHashAt(user) !== undefined) {
    deps.builds.forget(nonce);
    throw refuse(
      'INVALID_DEPLOYMENT_DATA',
      `account ${hex(user)} is already deployed: build an invoke`,
    );
  }
  // the stored copy is ours (bounded); the given one was proven equal to it above
  const messageHash = BigInt(snip12.getMessageHash(build.typedData as never, hex(user)));
  if (publicKey === undefined || !accountSignatureValid(publicKey, messageHash, signature))
    throw refuse('INVALID_SIGNATURE', 'the signature does not verify against the account key');
  return { publicKey, messageHash };
}

/** In default fee mode, what is due now against the signed maximum: the rest is refunded. */
function refundOf(chain: Chain, build: Build): { token: bigint; amount: bigint } | undefined {
  if (build.feeMode.mode !== 'default') return undefined;
  const { token, max } = build.feeMode;
  const price = chain.strkPrices().get(token.address);
  if (price === undefined)
    throw refuse('TRANSACTION_EXECUTION_ERROR', `no price for ${token.symbol}`);
  const due = friToToken(
    feeInFri(gasUsage(build.calls, build.type === 'deploy_and_invoke'), chain.gasPrices),
    token,
    price,
  );
  if (due > max) {
    throw refuse(
      'MAX_AMOUNT_TOO_LOW',
      `the fee is now ${due} base units of ${token.symbol}, above the signed maximum ${max}: build again`,
    );
  }
  return { token: BigInt(token.address), amount: max - due };
}

export const registerExecute: PaymasterModule = (root, deps) => {
  const { chain, builds, tracking } = deps;
  root.method('paymaster_executeTransaction', {
    params: ['transaction', 'parameters'],
    handler: (params, context) => {
      const { transaction, type, feeMode } = readExecuteRequest(deps, params, context);
      if (type === 'deploy') return executeDeploy(deps, transaction);
      const { build, nonce, user, signature } = matchBuild(deps, transaction, type, feeMode);
      checkTimeBounds(deps, build, nonce);
      const { publicKey, messageHash } = checkSignature(deps, build, nonce, user, signature);
      const refund = refundOf(chain, build);

      builds.forget(nonce);
      const record = chain.executeRelayed({
        account: user,
        outside: {
          nonce: BigInt(nonce),
          executeAfter: build.executeAfter,
          executeBefore: build.executeBefore,
          calls: build.calls,
          signature,
        },
        ...(build.type === 'deploy_and_invoke'
          ? { deployment: { classHash: BigInt(ARGENT_X_V050_CLASS_HASH), publicKey } }
          : {}),
        ...(refund === undefined ? {} : { refund }),
        messageHash,
        outsideNonce: BigInt(nonce),
      });
      return { transaction_hash: hex(record.hash), tracking_id: tracking.track(record.hash) };
    },
  });
};
