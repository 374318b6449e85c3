/**
 * Peer test: starkzap's own Vesu client (node_modules/starkzap, its VesuLendingProvider) runs
 * unchanged against a started sandbox chain over JSON-RPC. Its max-borrow and projected-health
 * quotes call the pool's `price(asset)` and `pair_config(collateral, debt)` — Vesu v2's views —
 * with `check_collateralization`, `position` and the factory's `v_token_for_asset`; each answer is
 * checked against the pool's numbers by hand, and the quotes against what the pool then does
 * (docs/decisions.md "starkzap as a devDependency").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENOMINATION, i257Felts, VESU_POOL_SELECTOR, vesuFor } from '../shared/vesu.js';
import { resolveToken } from '../shared/tokens.js';
import {
  approveCall,
  type Emulator,
  type EmulatorWallet,
  startEmulator,
  u256Of,
} from './helpers/chain-emulator.js';

const ETH = resolveToken('mainnet', 'ETH');
const USDC = resolveToken('mainnet', 'USDC');
const POOL = vesuFor('mainnet')!.pools[0]!.address;
const E18 = 10n ** 18n;
const E6 = 10n ** 6n;
const token = (t: typeof ETH) => ({
  address: t.address as never,
  symbol: t.symbol,
  decimals: t.decimals,
  name: t.symbol,
});

/**
 * starkzap's own modules, loaded from its dist as published: its package root also loads
 * optional peers this project does not install (its confidential-transfer SDK), so the lending
 * provider and its types are loaded by file, unchanged.
 */
const starkzapDist = new URL('../node_modules/starkzap/dist/src/', import.meta.url);
const load = async <T>(path: string): Promise<T> =>
  (await import(new URL(path, starkzapDist).href)) as T;
/* eslint-disable @typescript-eslint/no-explicit-any -- starkzap's classes, typed as it ships them */
let VesuLendingProvider: any;
let Amount: any;
let ChainId: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

let emu: Emulator;
beforeAll(async () => {
  ({ VesuLendingProvider } = await load<{ VesuLendingProvider: unknown }>(
    'lending/vesu/provider.js',
  ));
  ({ Amount, ChainId } = await load<{ Amount: unknown; ChainId: unknown }>('types/index.js'));
  emu = await startEmulator();
});
afterAll(async () => {
  await emu?.close();
});

/** deposits `eth` ETH and borrows `usdc` USDC in one modify_position, as the client builds it */
const borrow = (wallet: EmulatorWallet, eth: bigint, usdc: bigint) =>
  emu.transact(wallet, [
    approveCall(ETH.address, POOL, eth),
    {
      to: POOL,
      selector: VESU_POOL_SELECTOR.modify_position,
      calldata: [
        BigInt(ETH.address),
        BigInt(USDC.address),
        BigInt(wallet.address),
        DENOMINATION.Assets,
        ...i257Felts(eth),
        DENOMINATION.Assets,
        ...i257Felts(usdc),
      ],
    },
  ]);

describe("starkzap's Vesu client against the sandbox pool", () => {
  it('max borrow and projected health from price and pair_config, as the pool then does', async () => {
    const wallet = await emu.wallet();
    expect((await borrow(wallet, E18, 1_000n * E6)).execution_status).toBe('SUCCEEDED');
    // the provider as starkzap builds it: mainnet's presets (the sandbox is mainnet-like), no API
    const vesu = new VesuLendingProvider({
      chainConfigs: { SN_MAIN: { marketsApiUrl: null, positionsApiUrl: null } },
    });
    const context = {
      provider: emu.provider,
      chainId: ChainId.MAINNET,
      walletAddress: wallet.address,
    } as never;
    const pair = { collateralToken: token(ETH), debtToken: token(USDC) };

    // its reads, by hand: the pool's price (AssetPrice) and pair_config (PairConfig.max_ltv)
    const [ethPrice, usdcPrice, pairConfig, health] = await Promise.all([
      emu.view(POOL, 'price', [ETH.address]),
      emu.view(POOL, 'price', [USDC.address]),
      emu.view(POOL, 'pair_config', [ETH.address, USDC.address]),
      emu.view(POOL, 'check_collateralization', [ETH.address, USDC.address, wallet.address]),
    ]);
    expect(ethPrice[2]).toBe(1n);
    const maxLtv = pairConfig[0] as bigint;
    expect(maxLtv).toBe((8n * E18) / 10n);
    const [collateralValue, debtValue] = [u256Of(health, 1), u256Of(health, 3)];

    const max = await vesu.getMaxBorrowAmount(context, pair);
    const room = (collateralValue * maxLtv) / E18 - debtValue;
    // the sandbox's clock may move a second between our reads and starkzap's: interest on $1 000
    // for a second is far below a cent, so its figure is ours or a hair below, never above
    const expectedMax = (((room * E6) / u256Of(usdcPrice)) * 9_900n) / 10_000n;
    expect(max).toBeLessThanOrEqual(expectedMax);
    expect(max).toBeGreaterThan(expectedMax - E6 / 100n);
    expect(max).toBeGreaterThan(1_300n * E6); // $2 400 × … − $1 000, less starkzap's 1 % margin

    const current = await vesu.getHealth(context, pair);
    expect(current.isCollateralized).toBe(true);
    expect(current.collateralValue).toBe(collateralValue);
    expect(current.debtValue).toBeGreaterThanOrEqual(debtValue);
    expect(current.debtValue).toBeLessThan(debtValue + E18 / 100n);
    const projected = await vesu.quoteProjectedHealth(
      context,
      {
        action: {
          action: 'borrow',
          request: { ...pair, amount: Amount.fromRaw(max, USDC.decimals, 'USDC') },
        },
        health: pair,
      } as never,
      current,
    );
    expect(projected).not.toBeNull();
    // the debt's value grows by the amount at the pool's price, rounded up
    const added = (max * u256Of(usdcPrice) + E6 - 1n) / E6;
    expect(projected).toEqual({
      isCollateralized: true,
      collateralValue,
      debtValue: current.debtValue + added,
    });

    // the quote holds on the pool: the max borrow goes through, and the position is as projected
    expect((await borrow(wallet, 0n, max)).execution_status).toBe('SUCCEEDED');
    const after = await vesu.getHealth(context, pair);
    expect(after.isCollateralized).toBe(true);
    expect(after.collateralValue).toBe(collateralValue);
    // the chain's clock may have moved a second: interest, never less than projected
    expect(after.debtValue).toBeGreaterThanOrEqual(debtValue + added - 1n);
    expect(after.debtValue).toBeLessThan(debtValue + added + E18 / 100n);
  });

  it('an invalid price makes its max borrow 0, as the pool would refuse to add risk', async () => {
    const wallet = await emu.wallet();
    expect((await borrow(wallet, E18, 100n * E6)).execution_status).toBe('SUCCEEDED');
    const vesu = new VesuLendingProvider({
      chainConfigs: { SN_MAIN: { marketsApiUrl: null, positionsApiUrl: null } },
    });
    const context = {
      provider: emu.provider,
      chainId: ChainId.MAINNET,
      walletAddress: wallet.address,
    } as never;
    const pair = { collateralToken: token(ETH), debtToken: token(USDC) };
    expect(await vesu.getMaxBorrowAmount(context, pair)).toBeGreaterThan(0n);
    const knob = await emu.post('/sandbox/chain/price', {
      token: 'ETH',
      usd: '3000',
      valid: false,
    });
    expect(knob.status, JSON.stringify(knob.json)).toBe(200);
    try {
      expect((await emu.view(POOL, 'price', [ETH.address]))[2]).toBe(0n);
      expect(await vesu.getMaxBorrowAmount(context, pair)).toBe(0n);
    } finally {
      // the other test reads the market's price: put it back
      await emu.post('/sandbox/chain/price', { token: 'ETH', usd: '3000' });
    }
  });
});
