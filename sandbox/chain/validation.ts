/**
 * What a v3 transaction's validation needs (simulateTransactions and estimateFee without
 * SKIP_VALIDATE): its hash, as the sequencer computes it and the account's `__validate__` checks a
 * signature against (starknet.js's own hash functions, so what starknet.js signs is what is
 * verified), from the fields of the spec's BROADCASTED_INVOKE_TXN / BROADCASTED_DEPLOY_ACCOUNT_TXN.
 */
import { type constants, hash } from 'starknet';
import { feltListParam, feltParam, invalidParams, objectParam } from './jsonrpc.js';
import { hex } from './executor.js';

type Version = '0x3' | '0x100000000000000000000000000000003';

interface V3Fields {
  version: Version;
  nonce: bigint;
  resourceBounds: Record<
    'l1_gas' | 'l2_gas' | 'l1_data_gas',
    { max_amount: bigint; max_price_per_unit: bigint }
  >;
  tip: bigint;
  paymasterData: bigint[];
  nonceDataAvailabilityMode: 0 | 1;
  feeDataAvailabilityMode: 0 | 1;
  signature: bigint[];
}

const MAX_LIST = 64;

function daMode(value: unknown, name: string): 0 | 1 {
  if (value === 'L1') return 0;
  if (value === 'L2') return 1;
  throw invalidParams(`${name} must be "L1" or "L2"`);
}

/** The v3 fields every broadcasted transaction carries (version already checked). */
export function readV3Fields(tx: Record<string, unknown>, name: string): V3Fields {
  const bounds = objectParam(tx.resource_bounds, `${name}.resource_bounds`);
  const bound = (resource: 'l1_gas' | 'l2_gas' | 'l1_data_gas') => {
    const value = objectParam(bounds[resource], `${name}.resource_bounds.${resource}`);
    return {
      max_amount: feltParam(value.max_amount, `${name}.resource_bounds.${resource}.max_amount`),
      max_price_per_unit: feltParam(
        value.max_price_per_unit,
        `${name}.resource_bounds.${resource}.max_price_per_unit`,
      ),
    };
  };
  return {
    version: String(tx.version).toLowerCase() as Version,
    nonce: feltParam(tx.nonce, `${name}.nonce`),
    resourceBounds: {
      l1_gas: bound('l1_gas'),
      l2_gas: bound('l2_gas'),
      l1_data_gas: bound('l1_data_gas'),
    },
    tip: feltParam(tx.tip, `${name}.tip`),
    paymasterData: feltListParam(tx.paymaster_data, `${name}.paymaster_data`, MAX_LIST),
    nonceDataAvailabilityMode: daMode(
      tx.nonce_data_availability_mode,
      `${name}.nonce_data_availability_mode`,
    ),
    feeDataAvailabilityMode: daMode(
      tx.fee_data_availability_mode,
      `${name}.fee_data_availability_mode`,
    ),
    signature: feltListParam(tx.signature, `${name}.signature`, MAX_LIST),
  };
}

const common = (fields: V3Fields, chainId: string) => ({
  version: fields.version,
  chainId: chainId as constants.StarknetChainId,
  nonce: fields.nonce,
  nonceDataAvailabilityMode: fields.nonceDataAvailabilityMode,
  feeDataAvailabilityMode: fields.feeDataAvailabilityMode,
  resourceBounds: fields.resourceBounds,
  tip: fields.tip,
  paymasterData: fields.paymasterData,
});

export function invokeTransactionHash(
  sender: bigint,
  calldata: readonly bigint[],
  accountDeploymentData: readonly bigint[],
  fields: V3Fields,
  chainId: string,
): bigint {
  return BigInt(
    hash.calculateInvokeTransactionHash({
      ...common(fields, chainId),
      senderAddress: sender,
      compiledCalldata: calldata.map(hex),
      accountDeploymentData: [...accountDeploymentData],
    }),
  );
}

export function deployAccountTransactionHash(
  address: bigint,
  classHash: bigint,
  salt: bigint,
  constructorCalldata: readonly bigint[],
  fields: V3Fields,
  chainId: string,
): bigint {
  return BigInt(
    hash.calculateDeployAccountTransactionHash({
      ...common(fields, chainId),
      contractAddress: address,
      classHash,
      salt,
      compiledConstructorCalldata: constructorCalldata.map(hex),
    }),
  );
}
