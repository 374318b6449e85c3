/**
 * The account deployment a SNIP-29 request carries (deploy and deploy_and_invoke): the sandbox
 * deploys ArgentX v0.5.0 accounts only, checked field by field (docs/sandbox-chain.md "SNIP-29 paymaster").
 */
import {
  ARGENT_X_V050_CLASS_HASH,
  argentAccountAddressInMemory,
} from '../../../shared/starknet.js';
import { argentOwner } from '../contracts.js';
import { hex } from '../executor.js';
import { feltListParam, feltParam, objectParam } from '../jsonrpc.js';
import { refuse } from './errors.js';
import { address } from './params.js';

export interface Deployment {
  address: bigint;
  publicKey: bigint;
  /** as SNIP-29's ACCOUNT_DEPLOYMENT_DATA writes it (felts canonical) */
  json: Record<string, unknown>;
}

/** Checks an ArgentX v0.5.0 deployment (for `user`, when the transaction also invokes); returns its address and owner key. */
export function readDeployment(raw: unknown, user: bigint | undefined): Deployment {
  const deployment = objectParam(raw, 'transaction.deployment');
  const classHash = feltParam(deployment.class_hash, 'deployment.class_hash');
  if (classHash !== BigInt(ARGENT_X_V050_CLASS_HASH)) {
    throw refuse(
      'CLASS_HASH_NOT_SUPPORTED',
      `the sandbox deploys ArgentX v0.5.0 accounts only (class ${ARGENT_X_V050_CLASS_HASH})`,
    );
  }
  const calldata = feltListParam(deployment.calldata, 'deployment.calldata', 8);
  const sigdata =
    deployment.sigdata === undefined
      ? undefined
      : feltListParam(deployment.sigdata, 'deployment.sigdata', 8);
  const salt = feltParam(deployment.salt, 'deployment.salt');
  const addr = address(deployment.address, 'deployment.address');
  if (deployment.version !== 1 && deployment.version !== '0x1' && deployment.version !== '1')
    throw refuse('INVALID_DEPLOYMENT_DATA', 'deployment.version must be 1');
  const publicKey = argentOwner(calldata);
  if (publicKey === undefined)
    throw refuse(
      'INVALID_DEPLOYMENT_DATA',
      'constructor calldata must be [0 (Starknet owner), pubkey, 1 (no guardian)]',
    );
  if (salt !== publicKey)
    throw refuse('INVALID_DEPLOYMENT_DATA', 'the salt must be the owner public key');
  if (BigInt(argentAccountAddressInMemory(hex(publicKey))) !== addr)
    throw refuse(
      'INVALID_DEPLOYMENT_DATA',
      'deployment.address is not the address of this class, salt and calldata',
    );
  if (user !== undefined && addr !== user)
    throw refuse('INVALID_DEPLOYMENT_DATA', 'deployment.address is not invoke.user_address');
  const json = {
    address: hex(addr),
    class_hash: hex(classHash),
    salt: hex(salt),
    calldata: calldata.map(hex),
    ...(sigdata === undefined ? {} : { sigdata: sigdata.map(hex) }),
    version: 1,
  };
  return { address: addr, publicKey, json };
}
