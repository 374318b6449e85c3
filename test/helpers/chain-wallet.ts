/**
 * A local wallet against the chain emulator in tests: an ArgentX v0.5.0 account of a fresh key,
 * the SNIP-29 request shapes, and signing of what the paymaster built (the emulator only ever
 * sees signatures).
 */
import { getStarkKey, utils } from '@scure/starknet';
import { typedData } from 'starknet';
import { SELECTOR, u256Felts } from '../../shared/erc20.js';
import {
  ARGENT_X_V050_CLASS_HASH,
  argentAccountAddress,
  padHash,
  signStarkHash,
  splitSignature,
} from '../../shared/starknet.js';

export interface Wallet {
  privateKey: string;
  publicKey: string;
  address: string;
}

export function newWallet(): Wallet {
  const privateKey = padHash(`0x${Buffer.from(utils.randomPrivateKey()).toString('hex')}`);
  const publicKey = padHash(getStarkKey(privateKey));
  return { privateKey, publicKey, address: argentAccountAddress(publicKey) };
}

export const hex = (value: bigint): string => `0x${value.toString(16)}`;

/** A felt as the specs write it: 0x-hex without leading zeros. */
export const canonical = (felt: string): string => hex(BigInt(felt));

export const transferCall = (token: string, to: string, amount: bigint) => ({
  to: canonical(token),
  selector: hex(SELECTOR.transfer),
  calldata: [canonical(to), ...u256Felts(amount)],
});

/** SNIP-29 ACCOUNT_DEPLOYMENT_DATA of the wallet's account (felts canonical). */
export function deploymentOf(wallet: Wallet) {
  return {
    address: canonical(wallet.address),
    class_hash: canonical(ARGENT_X_V050_CLASS_HASH),
    salt: canonical(wallet.publicKey),
    calldata: ['0x0', canonical(wallet.publicKey), '0x1'],
    version: 1,
  };
}

export const sponsored = { version: '0x1', fee_mode: { mode: 'sponsored' } };
export const payIn = (token: string) => ({
  version: '0x1',
  fee_mode: { mode: 'default', gas_token: canonical(token) },
});

/** The wallet's signature `[r, s]` of SNIP-12 typed data. */
export function signTyped(wallet: Wallet, typed: unknown): string[] {
  const hash = typedData.getMessageHash(typed as never, wallet.address);
  return splitSignature(signStarkHash(hash, wallet.privateKey)).map(canonical);
}
