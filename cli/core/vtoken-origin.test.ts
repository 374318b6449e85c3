/**
 * A known pool's vToken is checked by its deploy address (vtoken-origin.ts, shared/vesu.ts
 * vTokenDebtAsset): the address Vesu v2's PoolFactory gives `create_v_token` — deploy_syscall with
 * salt 0 and [name, symbol, pool, asset, debt_asset] — recomputed here with starknet.js's own
 * calculateContractAddressFromHash, so the rule is held to the library, not to itself.
 */
import { CallData, byteArray, hash } from 'starknet';
import { beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../shared/errors.js';
import { feltHex } from '../../shared/felt.js';
import { resolveToken } from '../../shared/tokens.js';
import { vesuFor, vTokenAddress, vTokenDebtAsset, vTokenProofHolds } from '../../shared/vesu.js';
import type { ChainReader } from './chain/account.js';
import type { ViewCall } from './chain/views.js';
import { lendingPool } from './lending-pool.js';
import { checkVTokenOrigin, forgetVTokenProofs, vTokenProofsFor } from './vtoken-origin.js';

const mainnet = vesuFor('mainnet');
if (mainnet === undefined) throw new Error('mainnet has a Vesu deployment');
const pool = lendingPool('mainnet');
const USDC = resolveToken('mainnet', 'USDC');
const ETH = resolveToken('mainnet', 'ETH');
const CLASS = 0x1234abcdn;
const words = (text: string): bigint[] =>
  CallData.compile([byteArray.byteArrayFromString(text)]).map(BigInt);
const NAME = words('Vesu Prime USDC');
const SYMBOL = words('vUSDC');

/** The real vToken of USDC: its debt asset is ETH, the deployment's first other asset. */
const real = hash.calculateContractAddressFromHash(
  0,
  feltHex(CLASS),
  [...NAME, ...SYMBOL, BigInt(pool.address), BigInt(USDC.address), BigInt(ETH.address)].map((f) =>
    feltHex(f),
  ),
  mainnet.poolFactory,
);

/** Whether the factory deploys `vToken` for the asset in the pool (some candidate debt asset gives it). */
const deployedBy = (...args: Parameters<typeof vTokenDebtAsset>): boolean =>
  vTokenDebtAsset(...args) !== undefined;

describe('vTokenAddress (the PoolFactory’s create_v_token)', () => {
  it('is starknet.js’s deploy address with the factory as deployer and salt 0', () => {
    expect(
      BigInt(
        vTokenAddress({
          factory: mainnet.poolFactory,
          classHash: CLASS,
          name: NAME,
          symbol: SYMBOL,
          pool: pool.address,
          asset: USDC.address,
          debtAsset: ETH.address,
        }),
      ),
    ).toBe(BigInt(real));
  });

  it('holds for the factory’s address, whichever listed asset is the debt asset', () => {
    const facts = { classHash: CLASS, name: NAME, symbol: SYMBOL };
    expect(deployedBy('mainnet', facts, pool.address, USDC.address, real)).toBe(true);
    // another asset, another pool, another class or other words: another address
    expect(deployedBy('mainnet', facts, pool.address, ETH.address, real)).toBe(false);
    expect(deployedBy('mainnet', facts, feltHex(0x9001n), USDC.address, real)).toBe(false);
    expect(
      deployedBy('mainnet', { ...facts, classHash: CLASS + 1n }, pool.address, USDC.address, real),
    ).toBe(false);
    expect(
      deployedBy('mainnet', { ...facts, symbol: words('vUSDT') }, pool.address, USDC.address, real),
    ).toBe(false);
    // an address the node chose
    expect(deployedBy('mainnet', facts, pool.address, USDC.address, feltHex(0xbadn))).toBe(false);
  });
});

/** A node that answers the vToken's class, name and symbol as told. */
function node(answers: { classHash: unknown; name: bigint[]; symbol: bigint[] }) {
  const asked: ViewCall[] = [];
  const reader = {
    network: 'mainnet',
    provider: { getClassHashAt: () => Promise.resolve(answers.classHash) },
  } as unknown as ChainReader;
  const views = (call: ViewCall): Promise<bigint[]> => {
    asked.push(call);
    return Promise.resolve(call.entrypoint === 'name' ? answers.name : answers.symbol);
  };
  return { reader, views, asked };
}

describe('checkVTokenOrigin', () => {
  // a proven address is remembered for the process: each test starts with none
  beforeEach(forgetVTokenProofs);

  it('passes the factory’s vToken, asking its class, name and symbol', async () => {
    const n = node({ classHash: feltHex(CLASS), name: NAME, symbol: SYMBOL });
    await checkVTokenOrigin(n.reader, n.views, pool, USDC, real);
    expect(n.asked.map((c) => [c.contractAddress, c.entrypoint])).toEqual([
      [real, 'name'],
      [real, 'symbol'],
    ]);
  });

  it('refuses an address the node chose, whatever it says of its class and words', async () => {
    const n = node({ classHash: feltHex(CLASS), name: NAME, symbol: SYMBOL });
    const error: unknown = await checkVTokenOrigin(
      n.reader,
      n.views,
      pool,
      USDC,
      feltHex(0xbadn),
    ).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe('PINNED_ADDRESS_MISMATCH');
    expect(isAppError(error) && error.details).toMatchObject({
      token: 'USDC',
      reason: 'not-deployed-by-factory',
    });
  });

  it('a garbled class hash or ByteArray is a chain error, never a pass', async () => {
    for (const answers of [
      { classHash: 'not hex', name: NAME, symbol: SYMBOL },
      { classHash: feltHex(CLASS), name: [2n, 1n], symbol: SYMBOL },
      { classHash: feltHex(CLASS), name: NAME, symbol: [99n, ...SYMBOL.slice(1)] },
    ]) {
      const n = node(answers);
      const error: unknown = await checkVTokenOrigin(n.reader, n.views, pool, USDC, real).catch(
        (e: unknown) => e,
      );
      expect(isAppError(error) && error.code).toBe('CHAIN_ERROR');
    }
  });

  it('a proven address is not read again; its proof goes with typed data naming it and holds at the server', async () => {
    const n = node({ classHash: feltHex(CLASS), name: NAME, symbol: SYMBOL });
    expect(vTokenProofsFor([real])).toEqual([]);
    await checkVTokenOrigin(n.reader, n.views, pool, USDC, real);
    await checkVTokenOrigin(n.reader, n.views, pool, USDC, real);
    expect(n.asked).toHaveLength(2); // name and symbol, once
    const proofs = vTokenProofsFor([USDC.address, real.toUpperCase().replace('0X', '0x'), real]);
    expect(proofs).toHaveLength(1);
    expect(proofs[0]).toMatchObject({
      pool: pool.address,
      asset: USDC.address,
      debtAsset: ETH.address,
    });
    // the server's rule (shared/vesu.ts vTokenProofHolds) recomputes it from its own pins
    expect(vTokenProofHolds(proofs[0] as NonNullable<(typeof proofs)[0]>)).toMatchObject({
      network: 'mainnet',
      pool: { address: pool.address },
      token: { symbol: 'USDC' },
    });
    // remembered for this pool and asset only: the same address for another asset is read again
    const again = await checkVTokenOrigin(n.reader, n.views, pool, ETH, real).catch(
      (e: unknown) => e,
    );
    expect(isAppError(again) && again.code).toBe('PINNED_ADDRESS_MISMATCH');
    expect(n.asked).toHaveLength(4);
  });
});
