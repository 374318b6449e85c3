/**
 * The Vesu-like lending pool of the chain emulator over its JSON-RPC and paymaster: the factory,
 * the oracle and the pool's views through starknet.js's callContract, supply and withdraw through
 * a vToken, borrow / repay / close through `modify_position` with signed transactions, interest on
 * the sandbox clock, and the price knob.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveToken } from '../../shared/tokens.js';
import { byteArray } from 'starknet';
import { APPROVAL_EVENT_KEY, selectorOf, TRANSFER_EVENT_KEY } from '../../shared/erc20.js';
import {
  DENOMINATION,
  fromI257Felts,
  i257Felts,
  VESU_LIQUIDATE_POSITION_EVENT,
  VESU_EVENT,
  VESU_POOL_SELECTOR,
  VTOKEN_SELECTOR,
  vesuFor,
} from '../../shared/vesu.js';
import {
  approveCall,
  type Emulator,
  type EmulatorCall,
  type EmulatorReceipt,
  type EmulatorWallet,
  startEmulator,
  u256Of,
} from '../../test/helpers/chain-emulator.js';

const ETH = resolveToken('mainnet', 'ETH');
const USDC = resolveToken('mainnet', 'USDC');
const USDT = resolveToken('mainnet', 'USDT');
const STRK = resolveToken('mainnet', 'STRK');
const WBTC = resolveToken('mainnet', 'WBTC');
const DAI = resolveToken('mainnet', 'DAI');
const VESU = vesuFor('mainnet')!;
const POOL = VESU.pools[0]!.address;
const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

let emu: Emulator;

/** modify_position's 11 felts: collateral_asset, debt_asset, user, collateral Amount, debt Amount */
function modify(
  wallet: EmulatorWallet,
  collateral: string,
  debt: string,
  collateralAmount: { value: bigint; native?: boolean },
  debtAmount: { value: bigint; native?: boolean },
): EmulatorCall {
  const amount = (a: { value: bigint; native?: boolean }): bigint[] => [
    a.native === true ? DENOMINATION.Native : DENOMINATION.Assets,
    ...i257Felts(a.value),
  ];
  return {
    to: POOL,
    selector: VESU_POOL_SELECTOR.modify_position,
    calldata: [
      BigInt(collateral),
      BigInt(debt),
      BigInt(wallet.address),
      ...amount(collateralAmount),
      ...amount(debtAmount),
    ],
  };
}

async function position(wallet: EmulatorWallet, collateral: string, debt: string) {
  const felts = await emu.view(POOL, 'position', [collateral, debt, wallet.address]);
  return {
    shares: u256Of(felts, 0),
    nominalDebt: u256Of(felts, 2),
    collateral: u256Of(felts, 4),
    debt: u256Of(felts, 6),
  };
}

async function collateralization(wallet: EmulatorWallet, collateral: string, debt: string) {
  const felts = await emu.view(POOL, 'check_collateralization', [collateral, debt, wallet.address]);
  return { ok: felts[0] === 1n, collateralValue: u256Of(felts, 1), debtValue: u256Of(felts, 3) };
}

async function vTokenOf(asset: string): Promise<string> {
  const [vToken] = await emu.view(VESU.poolFactory, 'v_token_for_asset', [POOL, asset]);
  return `0x${(vToken as bigint).toString(16)}`;
}

/** deposits `eth` ETH as collateral and borrows `usdc` USDC in one modify_position */
async function borrow(wallet: EmulatorWallet, eth: bigint, usdc: bigint) {
  return emu.transact(wallet, [
    approveCall(ETH.address, POOL, eth),
    modify(wallet, ETH.address, USDC.address, { value: eth }, { value: usdc }),
  ]);
}

const reason = (receipt: { revert_reason?: string }) => receipt.revert_reason ?? '';

beforeAll(async () => {
  emu = await startEmulator();
});

afterAll(async () => {
  await emu?.close();
});

describe('factory, oracle and pool views', () => {
  it('the factory finds one vToken per listed asset, none for others', async () => {
    const seen = new Set<string>();
    for (const token of [ETH, WBTC, STRK, USDC, USDT]) {
      const vToken = await vTokenOf(token.address);
      expect(BigInt(vToken)).not.toBe(0n);
      seen.add(vToken);
      expect(await emu.view(vToken, 'asset')).toEqual([BigInt(token.address)]);
    }
    expect(seen.size).toBe(5);
    expect(await emu.view(VESU.poolFactory, 'v_token_for_asset', [POOL, DAI.address])).toEqual([
      0n,
    ]);
    expect(await emu.view(VESU.poolFactory, 'v_token_for_asset', ['0x1', ETH.address])).toEqual([
      0n,
    ]);
  });

  it("the oracle prices at the market; the pool's own price and pair_config views (Vesu v2's)", async () => {
    const [oracle] = await emu.view(POOL, 'oracle');
    const eth = await emu.view(`0x${(oracle as bigint).toString(16)}`, 'price', [ETH.address]);
    expect(eth).toEqual([3000n * E18, 0n, 1n]);
    // the pool's price(asset) asks its oracle: AssetPrice { value: u256, is_valid: bool }
    expect(await emu.view(POOL, 'price', [ETH.address])).toEqual(eth);
    // PairConfig { max_ltv: u64, liquidation_factor: u64, debt_cap: u128 }
    expect(await emu.view(POOL, 'pair_config', [ETH.address, USDC.address])).toEqual([
      (8n * E18) / 10n,
      (9n * E18) / 10n,
      0n,
    ]);
    expect(await emu.view(POOL, 'pair_config', [STRK.address, USDC.address])).toEqual([
      (7n * E18) / 10n,
      (9n * E18) / 10n,
      0n,
    ]);
    expect(await emu.view(POOL, 'pair_config', [WBTC.address, USDT.address])).toEqual([
      (8n * E18) / 10n,
      (9n * E18) / 10n,
      1000n * E6,
    ]);
    // a pair never configured reads as zeros, as v2's storage read does (no revert)
    expect(await emu.view(POOL, 'pair_config', [DAI.address, USDC.address])).toEqual([0n, 0n, 0n]);
    // v1's views are gone: the pool answers ENTRYPOINT_NOT_FOUND
    for (const v1 of ['ltv_config', 'liquidation_config', 'debt_caps']) {
      await expect(emu.view(POOL, v1, [ETH.address, USDC.address])).rejects.toThrow(
        /21: Requested entry point does not exist/,
      );
    }
    const config = await emu.view(POOL, 'asset_config', [USDC.address]);
    expect(config).toHaveLength(22);
    expect(u256Of(config, 6)).toBe((95n * E18) / 100n); // max_utilization
    expect(u256Of(config, 8)).toBe(10n * E18); // floor: $10
    expect(u256Of(config, 10)).toBe(E6); // scale
    const unlisted = await emu.rpc('/rpc', 'starknet_call', {
      request: {
        contract_address: POOL,
        entry_point_selector: `0x${VESU_POOL_SELECTOR.asset_config.toString(16)}`,
        calldata: [DAI.address],
      },
      block_id: 'latest',
    });
    expect(JSON.stringify(unlisted.error?.data)).toContain('asset-config-nonexistent');
  });

  it("context answers as Vesu v2's: the pair, both configs, the oracle's prices, max LTV, the user, the position", async () => {
    const wallet = await emu.wallet();
    expect((await borrow(wallet, E18, 1_000n * E6)).execution_status).toBe('SUCCEEDED');
    const [oracle] = await emu.view(POOL, 'oracle');
    const price = (asset: string) =>
      emu.view(`0x${(oracle as bigint).toString(16)}`, 'price', [asset]);
    const held = await position(wallet, ETH.address, USDC.address);
    // the asset configs carry "now" (last_updated, the accrued accumulator): compared when the
    // context and the views are read within the same chain second, retried until they are
    await vi.waitFor(async () => {
      const f = await emu.view(POOL, 'context', [ETH.address, USDC.address, wallet.address]);
      expect(f).toHaveLength(2 + 22 + 22 + 3 + 3 + 1 + 1 + 4);
      expect(f).toEqual([
        BigInt(ETH.address),
        BigInt(USDC.address),
        ...(await emu.view(POOL, 'asset_config', [ETH.address])),
        ...(await emu.view(POOL, 'asset_config', [USDC.address])),
        ...(await price(ETH.address)),
        ...(await price(USDC.address)),
        (await emu.view(POOL, 'pair_config', [ETH.address, USDC.address]))[0] as bigint,
        BigInt(wallet.address),
        held.shares % (1n << 128n),
        held.shares >> 128n,
        held.nominalDebt % (1n << 128n),
        held.nominalDebt >> 128n,
      ]);
    });
    for (const [pair, refusal] of [
      [[ETH.address, ETH.address], 'identical-assets'],
      [[DAI.address, USDC.address], 'asset-config-nonexistent'],
    ] as const) {
      const refused = await emu.rpc('/rpc', 'starknet_call', {
        request: {
          contract_address: POOL,
          entry_point_selector: `0x${VESU_POOL_SELECTOR.context.toString(16)}`,
          calldata: [...pair, wallet.address],
        },
        block_id: 'latest',
      });
      expect(JSON.stringify(refused.error?.data)).toContain(refusal);
    }
  });
});

describe("the pool's rate and utility views (Vesu v2's)", () => {
  const i257 = (v: bigint): string[] => i257Felts(v).map((f) => `0x${f.toString(16)}`);
  const hex = (v: bigint): string => `0x${v.toString(16)}`;

  it('rate_accumulator and asset_config agree; interest_rate_config is the struct of 8 u256', async () => {
    const config = await emu.view(POOL, 'asset_config', [USDC.address]);
    expect(u256Of(await emu.view(POOL, 'rate_accumulator', [USDC.address]))).toBe(
      u256Of(config, 14),
    );
    const rates = await emu.view(POOL, 'interest_rate_config', [USDC.address]);
    expect(rates).toHaveLength(16);
    const field = (i: number) => u256Of(rates, 2 * i);
    // min ≤ target ≤ max target utilisation (1e5 scale), zero ≤ min-full ≤ max-full rate
    expect(field(0) <= field(2) && field(2) <= field(1) && field(1) < 100_000n).toBe(true);
    expect(field(5) <= field(3) && field(3) <= field(4)).toBe(true);
    expect(field(5)).toBeGreaterThan(0n);
    // an asset the pool does not list: a storage read of zeros, as v2's
    expect(await emu.view(POOL, 'interest_rate_config', [DAI.address])).toEqual(
      new Array(16).fill(0n),
    );
    await expect(emu.view(POOL, 'rate_accumulator', [DAI.address])).rejects.toThrow(
      /asset-config-nonexistent/,
    );
  });

  it("interest_rate is the model's borrow rate per second; 8 % a year on the sandbox", async () => {
    const config = await emu.view(POOL, 'asset_config', [USDC.address]);
    const utilization = u256Of(await emu.view(POOL, 'utilization', [USDC.address]));
    const rate = u256Of(
      await emu.view(POOL, 'interest_rate', [
        USDC.address,
        hex(utilization % (1n << 128n)),
        hex(utilization >> 128n),
        hex(config[13] as bigint), // last_updated: now (asset_config accrues to now)
        hex(config[16] as bigint), // last_full_utilization_rate
        hex(config[17] as bigint),
      ]),
    );
    // per second, 1e18 scale: × a year's seconds is 8 % to within a second's rounding
    const year = 365n * 86_400n;
    expect(rate * year).toBeLessThanOrEqual((8n * E18) / 100n);
    expect(rate * year).toBeGreaterThan((8n * E18) / 100n - year);
    // a last_updated after the chain's clock underflows, as Cairo's u64 does
    await expect(
      emu.view(POOL, 'interest_rate', [USDC.address, '0x0', '0x0', hex(1n << 40n), '0x0', '0x0']),
    ).rejects.toThrow(/u64_sub Overflow/);
  });

  it('calculate_debt and calculate_collateral round as v2 does: by the sign', async () => {
    // debt = nominal × accumulator × scale / 1e36: up for a negative nominal, else down
    const acc = (E18 * 3n) / 2n + 1n;
    const args = (nominal: bigint) => [...i257(nominal), hex(acc), '0x0', hex(E6), '0x0'];
    const exact = 7n * E18 * acc * E6;
    expect(u256Of(await emu.view(POOL, 'calculate_debt', args(7n * E18)))).toBe(
      exact / (E18 * E18),
    );
    expect(u256Of(await emu.view(POOL, 'calculate_debt', args(-7n * E18)))).toBe(
      exact / (E18 * E18) + 1n,
    );
    expect(
      u256Of(await emu.view(POOL, 'calculate_debt', [...i257(5n), '0x0', '0x0', hex(E6), '0x0'])),
    ).toBe(0n);
    // collateral of shares: rounded down for negative shares, up for positive ones (the vToken's
    // own ERC-4626 conversion is its own shares' — docs/sandbox-chain.md "The vToken" — not these)
    const shares = 123_456_789n * E18;
    const viaPool = async (v: bigint) =>
      u256Of(await emu.view(POOL, 'calculate_collateral', [USDC.address, ...i257(v)]));
    const down = await viaPool(-shares);
    expect(down).toBeGreaterThan(0n);
    const up = await viaPool(shares);
    // up also counts the debt rounded up (the source's calculate_collateral): never below down
    expect(up).toBeGreaterThanOrEqual(down);
    await expect(
      emu.view(POOL, 'calculate_collateral', [DAI.address, ...i257(1n)]),
    ).rejects.toThrow(/asset-config-nonexistent/);
  });

  it("the pool's class ABI lists every view it serves, with v2's names and types", async () => {
    const cls = (await emu.rpc('/rpc', 'starknet_getClassAt', {
      block_id: 'latest',
      contract_address: POOL,
    })) as { result: { abi: string } };
    const abi = JSON.parse(cls.result.abi) as Array<{
      type: string;
      name: string;
      items?: Array<{
        name: string;
        inputs: Array<{ type: string }>;
        outputs: Array<{ type: string }>;
      }>;
      members?: Array<{ name: string; type: string }>;
    }>;
    const items = abi.find((e) => e.type === 'interface')?.items ?? [];
    const names = items.map((i) => i.name);
    for (const view of [
      'context',
      'position',
      'pair_config',
      'pairs',
      'asset_config',
      'price',
      'rate_accumulator',
      'utilization',
      'interest_rate',
      'interest_rate_config',
      'calculate_debt',
      'calculate_collateral',
    ])
      expect(names).toContain(view);
    for (const v1 of ['ltv_config', 'liquidation_config', 'debt_caps'])
      expect(names).not.toContain(v1);
    const pairConfig = abi.find((e) => e.name === 'vesu::data_model::PairConfig');
    expect(pairConfig?.members).toEqual([
      { name: 'max_ltv', type: 'core::integer::u64' },
      { name: 'liquidation_factor', type: 'core::integer::u64' },
      { name: 'debt_cap', type: 'core::integer::u128' },
    ]);
    expect(items.find((i) => i.name === 'context')?.outputs).toEqual([
      { type: 'vesu::data_model::Context' },
    ]);
  });
});

describe('supply and withdraw through the vToken', () => {
  it('deposit, interest on the sandbox clock, then redeem every share leaves no vToken', async () => {
    const wallet = await emu.wallet();
    // a borrower makes the supply earn
    const borrower = await emu.wallet();
    const lent = await borrow(borrower, 5n * E18, 6_000n * E6);
    expect(lent.execution_status, reason(lent)).toBe('SUCCEEDED');

    const vUsdc = await vTokenOf(USDC.address);
    const before = await emu.balance(USDC.address, wallet.address);
    const preview = u256Of(
      await emu.view(vUsdc, 'preview_deposit', ['0x' + (1000n * E6).toString(16), '0x0']),
    );
    const deposit = await emu.transact(wallet, [
      approveCall(USDC.address, vUsdc, 1000n * E6),
      {
        to: vUsdc,
        selector: VTOKEN_SELECTOR.deposit,
        calldata: [1000n * E6, 0n, BigInt(wallet.address)],
      },
    ]);
    expect(deposit.execution_status, reason(deposit)).toBe('SUCCEEDED');
    const shares = u256Of(await emu.view(vUsdc, 'balance_of', [wallet.address]));
    // a second has passed since the preview, and the borrower's interest with it: a hair fewer
    expect(shares).toBeLessThanOrEqual(preview);
    expect(shares).toBeGreaterThan((preview * 9_999n) / 10_000n);
    const worth = u256Of(
      await emu.view(vUsdc, 'convert_to_assets', ['0x' + shares.toString(16), '0x0']),
    );
    expect(worth).toBeLessThanOrEqual(1000n * E6);
    expect(worth).toBeGreaterThanOrEqual(1000n * E6 - 1n);

    await emu.advance(30 * 86_400);
    const grown = u256Of(
      await emu.view(vUsdc, 'convert_to_assets', ['0x' + shares.toString(16), '0x0']),
    );
    expect(grown).toBeGreaterThan(worth);

    const maxRedeem = u256Of(await emu.view(vUsdc, 'max_redeem', [wallet.address]));
    expect(maxRedeem).toBe(shares);
    const redeem = await emu.transact(wallet, [
      {
        to: vUsdc,
        selector: VTOKEN_SELECTOR.redeem,
        calldata: [maxRedeem, 0n, BigInt(wallet.address), BigInt(wallet.address)],
      },
    ]);
    expect(redeem.execution_status).toBe('SUCCEEDED');
    expect(u256Of(await emu.view(vUsdc, 'balance_of', [wallet.address]))).toBe(0n);
    expect(await emu.balance(USDC.address, wallet.address)).toBe(before - 1000n * E6 + grown);
  });

  it('withdraw takes exact assets; above the holding it reverts', async () => {
    const wallet = await emu.wallet();
    const vStrk = await vTokenOf(STRK.address);
    await emu.transact(wallet, [
      approveCall(STRK.address, vStrk, 100n * E18),
      {
        to: vStrk,
        selector: VTOKEN_SELECTOR.deposit,
        calldata: [100n * E18, 0n, BigInt(wallet.address)],
      },
    ]);
    const before = await emu.balance(STRK.address, wallet.address);
    const out = await emu.transact(wallet, [
      {
        to: vStrk,
        selector: VTOKEN_SELECTOR.withdraw,
        calldata: [40n * E18, 0n, BigInt(wallet.address), BigInt(wallet.address)],
      },
    ]);
    expect(out.execution_status, reason(out)).toBe('SUCCEEDED');
    expect(await emu.balance(STRK.address, wallet.address)).toBe(before + 40n * E18);
    const tooMuch = await emu.transact(wallet, [
      {
        to: vStrk,
        selector: VTOKEN_SELECTOR.withdraw,
        calldata: [61n * E18, 0n, BigInt(wallet.address), BigInt(wallet.address)],
      },
    ]);
    // the shares burn first, as OpenZeppelin's ERC-20 inside the vToken refuses it
    expect(reason(tooMuch)).toContain('ERC20: insufficient balance');
  });
});

describe('borrow, repay, close', () => {
  it('a borrow in one modify_position: amounts, values, health as computed by hand, the event', async () => {
    const wallet = await emu.wallet();
    // the chain's time now (a second moved: advance takes at least one)
    const before = await emu.advance(1);
    const receipt = await borrow(wallet, 2n * E18, 3_000n * E6);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    const event = receipt.events.find(
      (e) => BigInt(e.keys[0] as string) === VESU_EVENT.ModifyPosition,
    );
    expect(event?.keys.slice(1).map(BigInt)).toEqual([
      BigInt(ETH.address),
      BigInt(USDC.address),
      BigInt(wallet.address),
    ]);
    // collateral_delta, collateral_shares_delta, debt_delta, nominal_debt_delta: i257 each
    expect(event?.data).toHaveLength(12);
    expect(event?.data.slice(0, 3).map(BigInt)).toEqual(i257Felts(2n * E18));
    expect(event?.data.slice(6, 9).map(BigInt)).toEqual(i257Felts(3_000n * E6));
    const p = await position(wallet, ETH.address, USDC.address);
    // rounded up in the pool's favour, and interest accrues by the second: at most the seconds the
    // chain's clock moved since the borrow (a loaded machine takes more than one) at 8 % a year
    const c = await collateralization(wallet, ETH.address, USDC.address);
    const elapsed = BigInt((await emu.advance(1)) - before);
    const interest = (3_000n * E6 * 8n * elapsed) / (100n * 365n * 86_400n) + 1n;
    expect(p.debt).toBeGreaterThanOrEqual(3_000n * E6);
    expect(p.debt).toBeLessThanOrEqual(3_000n * E6 + 1n + interest);
    expect(p.collateral).toBeLessThanOrEqual(2n * E18);
    expect(p.collateral).toBeGreaterThanOrEqual(2n * E18 - 1n);
    expect(c.ok).toBe(true);
    // read after the position: the same debt, or a second's interest more
    expect(c.debtValue).toBeGreaterThanOrEqual((p.debt * 3_000n * E18) / (3_000n * E6));
    expect(c.debtValue).toBeLessThanOrEqual(((p.debt + interest) * 3_000n * E18) / (3_000n * E6));
    // health = collateral value × max_ltv / debt value = 6000 × 0.8 / 3000 = 1.6
    const health = (c.collateralValue * 8n * E18) / 10n / c.debtValue;
    expect(health).toBeGreaterThanOrEqual((1599n * E18) / 1000n);
    expect(health).toBeLessThanOrEqual((16n * E18) / 10n);
  });

  it('refuses identical assets, a borrow not collateralised, dust, the cap and the utilisation limit', async () => {
    const wallet = await emu.wallet();
    const identical = await emu.transact(wallet, [
      modify(wallet, ETH.address, ETH.address, { value: 0n }, { value: 0n }),
    ]);
    expect(reason(identical)).toContain('identical-assets');
    // 1 ETH ($3000) × 0.8 = $2400 at most
    const over = await borrow(wallet, E18, 2_401n * E6);
    expect(reason(over)).toContain('not-collateralized');
    const dust = await borrow(wallet, E18, 5n * E6);
    expect(reason(dust)).toContain('dusty-debt-balance');
    const capped = await emu.transact(wallet, [
      approveCall(WBTC.address, POOL, 10_000_000n),
      modify(wallet, WBTC.address, USDT.address, { value: 10_000_000n }, { value: 1_001n * E6 }),
    ]);
    expect(reason(capped)).toContain('debt-cap-exceeded');
    // USDT's reserve is 20 000 (less what others borrowed): 19 500 is above 95 % of it
    const utilisation = await emu.transact(wallet, [
      approveCall(ETH.address, POOL, 10n * E18),
      modify(wallet, ETH.address, USDT.address, { value: 10n * E18 }, { value: 19_500n * E6 }),
    ]);
    expect(reason(utilisation)).toContain('utilization-exceeded');
    const unlisted = await emu.transact(wallet, [
      modify(wallet, DAI.address, USDC.address, { value: 0n }, { value: 0n }),
    ]);
    expect(reason(unlisted)).toContain('asset-config-nonexistent');
  });

  it("the pair's totals (`pairs`) count every borrower; the cap bounds that total, not one account's", async () => {
    const totals = async () => {
      const f = await emu.view(POOL, 'pairs', [WBTC.address, USDT.address]);
      expect(f).toHaveLength(4); // Pair { total_collateral_shares: u256, total_nominal_debt: u256 }
      return { shares: u256Of(f, 0), nominalDebt: u256Of(f, 2) };
    };
    const before = await totals();
    const wallets = [await emu.wallet(), await emu.wallet()];
    for (const wallet of wallets) {
      const receipt = await emu.transact(wallet, [
        approveCall(WBTC.address, POOL, 10_000_000n),
        modify(wallet, WBTC.address, USDT.address, { value: 10_000_000n }, { value: 400n * E6 }),
      ]);
      expect(receipt.execution_status, reason(receipt)).toBe('SUCCEEDED');
    }
    const held = await Promise.all(wallets.map((w) => position(w, WBTC.address, USDT.address)));
    expect(await totals()).toEqual({
      shares: before.shares + held.reduce((t, p) => t + p.shares, 0n),
      nominalDebt: before.nominalDebt + held.reduce((t, p) => t + p.nominalDebt, 0n),
    });
    // 300 more is far under the 1 000 cap for this account, above it for the pair
    const third = await emu.wallet();
    const capped = await emu.transact(third, [
      approveCall(WBTC.address, POOL, 10_000_000n),
      modify(third, WBTC.address, USDT.address, { value: 10_000_000n }, { value: 300n * E6 }),
    ]);
    expect(reason(capped)).toContain('debt-cap-exceeded');
  });

  it('another user’s position is refused (no-delegation)', async () => {
    const wallet = await emu.wallet();
    const other = await emu.wallet();
    const call = modify(other, ETH.address, USDC.address, { value: E18 }, { value: 0n });
    const refused = await emu.transact(wallet, [approveCall(ETH.address, POOL, E18), call]);
    expect(reason(refused)).toContain('no-delegation');
  });

  it('an exact-asset partial repay that leaves dust reverts; repay all (Native) leaves 0; close returns the collateral', async () => {
    const wallet = await emu.wallet();
    const ethBefore = await emu.balance(ETH.address, wallet.address);
    expect((await borrow(wallet, 2n * E18, 1_000n * E6)).execution_status).toBe('SUCCEEDED');
    await emu.advance(10 * 86_400);
    const owed = (await position(wallet, ETH.address, USDC.address)).debt;
    expect(owed).toBeGreaterThan(1_000n * E6);

    const dusty = await emu.transact(wallet, [
      approveCall(USDC.address, POOL, owed),
      modify(wallet, ETH.address, USDC.address, { value: 0n }, { value: -(owed - 5n * E6) }),
    ]);
    expect(reason(dusty)).toContain('dusty-debt-balance');

    const { nominalDebt, shares } = await position(wallet, ETH.address, USDC.address);
    const usdcBefore = await emu.balance(USDC.address, wallet.address);
    const repay = await emu.transact(wallet, [
      approveCall(USDC.address, POOL, owed + E6),
      modify(
        wallet,
        ETH.address,
        USDC.address,
        { value: 0n },
        { value: -nominalDebt, native: true },
      ),
    ]);
    expect(repay.execution_status).toBe('SUCCEEDED');
    const repaid = await position(wallet, ETH.address, USDC.address);
    expect(repaid.nominalDebt).toBe(0n);
    expect(repaid.debt).toBe(0n);
    // exactly the debt the event reports left the wallet: at least what was owed a moment before
    const event = repay.events.find(
      (e) => BigInt(e.keys[0] as string) === VESU_EVENT.ModifyPosition,
    );
    const [low, high, negative] = (event?.data.slice(6, 9) ?? []).map(BigInt) as [
      bigint,
      bigint,
      bigint,
    ];
    expect(negative).toBe(1n);
    const paid = low + (high << 128n);
    expect(paid).toBeGreaterThanOrEqual(owed);
    expect(await emu.balance(USDC.address, wallet.address)).toBe(usdcBefore - paid);

    const close = await emu.transact(wallet, [
      modify(wallet, ETH.address, USDC.address, { value: -shares, native: true }, { value: 0n }),
    ]);
    expect(close.execution_status).toBe('SUCCEEDED');
    const closed = await position(wallet, ETH.address, USDC.address);
    expect(closed.shares).toBe(0n);
    // the collateral earned the borrowers' interest meanwhile: at least what went in comes back
    expect(await emu.balance(ETH.address, wallet.address)).toBeGreaterThanOrEqual(ethBefore - 1n);
  });

  it('an over-repay in assets is clamped to the debt', async () => {
    const wallet = await emu.wallet();
    await borrow(wallet, 2n * E18, 500n * E6);
    const usdcBefore = await emu.balance(USDC.address, wallet.address);
    const owed = (await position(wallet, ETH.address, USDC.address)).debt;
    const repay = await emu.transact(wallet, [
      approveCall(USDC.address, POOL, 5_000n * E6),
      modify(wallet, ETH.address, USDC.address, { value: 0n }, { value: -5_000n * E6 }),
    ]);
    expect(repay.execution_status).toBe('SUCCEEDED');
    expect((await position(wallet, ETH.address, USDC.address)).debt).toBe(0n);
    const paid = usdcBefore - (await emu.balance(USDC.address, wallet.address));
    expect(paid).toBeGreaterThanOrEqual(owed);
    expect(paid).toBeLessThanOrEqual(owed + 1n);
  });
});

describe('the price knob', () => {
  let own: Emulator;
  beforeAll(async () => {
    own = await startEmulator();
  });
  afterAll(async () => {
    await own?.close();
  });

  it('moves the oracle and the market; the health factor follows; an invalid price refuses a borrow', async () => {
    const saved = emu;
    emu = own;
    try {
      const wallet = await emu.wallet();
      expect((await borrow(wallet, 2n * E18, 3_000n * E6)).execution_status).toBe('SUCCEEDED');
      const set = await emu.post('/sandbox/chain/price', { token: 'ETH', usd: '2000' });
      expect(set.status).toBe(200);
      expect(set.json).toMatchObject({ symbol: 'ETH', usd: '2000', valid: true });
      const market = Number((set.json as { marketUsd: string }).marketUsd);
      expect(market).toBeGreaterThan(1999.99);
      expect(market).toBeLessThan(2000.01);
      const c = await collateralization(wallet, ETH.address, USDC.address);
      expect(c.collateralValue).toBeLessThanOrEqual(4_000n * E18);
      expect(c.collateralValue).toBeGreaterThan(3_999n * E18);
      // health 4000 × 0.8 / 3000 ≈ 1.07: still collateralised; at $1800 it is not
      expect(c.ok).toBe(true);
      await emu.post('/sandbox/chain/price', { token: 'ETH', usd: '1800.5' });
      expect((await collateralization(wallet, ETH.address, USDC.address)).ok).toBe(false);

      await emu.post('/sandbox/chain/price', { token: 'ETH', usd: '3000', valid: false });
      const other = await emu.wallet();
      const refused = await borrow(other, E18, 100n * E6);
      expect(reason(refused)).toContain('invalid-oracle-price');

      for (const bad of [
        { token: 'USDC', usd: '1.01' },
        { token: 'ETH', usd: '0' },
        { token: 'ETH', usd: '1e3' },
        { token: 'ETH', usd: '-5' },
        { token: 'ETH', usd: '99999999999999999999' },
        { token: 'ETH', usd: '10000000.000000000000000001' },
        { token: 'ETH', usd: '0.0000009' },
        { token: 'NOPE', usd: '1' },
      ])
        expect((await emu.post('/sandbox/chain/price', bad)).status, JSON.stringify(bad)).toBe(400);
    } finally {
      emu = saved;
    }
  });
});

describe('the vToken speaks ERC-20 and the whole ERC-4626 (Vesu v2 VToken, OpenZeppelin ERC20)', () => {
  const call = (to: string, name: string, calldata: bigint[]): EmulatorCall => ({
    to,
    selector: selectorOf(name),
    calldata,
  });
  const u = (value: bigint): bigint[] => [value % (1n << 128n), value >> 128n];
  const h = (value: bigint): string[] => u(value).map((f) => '0x' + f.toString(16));

  it('name and symbol are ByteArrays; decimals 18; pool_contract; the factory maps both ways', async () => {
    const vEth = await vTokenOf(ETH.address);
    const name = await emu.view(vEth, 'name');
    expect(name).toEqual([0n, BigInt(byteArray.byteArrayFromString('Vesu ETH').pending_word), 8n]);
    const symbol = await emu.view(vEth, 'symbol');
    expect(symbol[symbol.length - 1]).toBe(4n);
    expect(await emu.view(vEth, 'decimals')).toEqual([18n]);
    expect(await emu.view(vEth, 'pool_contract')).toEqual([BigInt(POOL)]);
    expect(await emu.view(VESU.poolFactory, 'asset_for_v_token', [POOL, vEth])).toEqual([
      BigInt(ETH.address),
    ]);
    expect(await emu.view(VESU.poolFactory, 'asset_for_v_token', [POOL, ETH.address])).toEqual([
      0n,
    ]);
    expect(await emu.view(VESU.poolFactory, 'asset_for_v_token', [ETH.address, vEth])).toEqual([
      0n,
    ]);
    // snake_case only, as the vToken embeds OpenZeppelin's ERC20Impl
    const camel = await emu.rpc('/rpc', 'starknet_call', {
      request: {
        contract_address: vEth,
        entry_point_selector: '0x' + selectorOf('balanceOf').toString(16),
        calldata: [POOL],
      },
      block_id: 'latest',
    });
    expect(camel.error).toBeDefined();
  });

  it('shares are sent, approved and spent (transfer, approve, allowance, transfer_from) with their events', async () => {
    const alice = await emu.wallet();
    const bob = await emu.wallet();
    const vUsdc = await vTokenOf(USDC.address);
    const deposit = await emu.transact(alice, [
      approveCall(USDC.address, vUsdc, 500n * E6),
      call(vUsdc, 'deposit', [...u(500n * E6), BigInt(alice.address)]),
    ]);
    expect(deposit.execution_status, reason(deposit)).toBe('SUCCEEDED');
    const shares = u256Of(await emu.view(vUsdc, 'balance_of', [alice.address]));
    expect(shares).toBeGreaterThan(0n);
    // the asset went caller -> vToken -> pool, as the real vToken settles a deposit
    const assetMoves = deposit.events.filter(
      (e) =>
        BigInt(e.from_address) === BigInt(USDC.address) &&
        BigInt(e.keys[0] as string) === TRANSFER_EVENT_KEY,
    );
    expect(assetMoves.map((e) => e.keys.slice(1).map(BigInt))).toEqual([
      [BigInt(alice.address), BigInt(vUsdc)],
      [BigInt(vUsdc), BigInt(POOL)],
    ]);

    const half = shares / 2n;
    const sent = await emu.transact(alice, [
      call(vUsdc, 'transfer', [BigInt(bob.address), ...u(half)]),
    ]);
    expect(sent.execution_status, reason(sent)).toBe('SUCCEEDED');
    const transfer = sent.events.find(
      (e) =>
        BigInt(e.from_address) === BigInt(vUsdc) &&
        BigInt(e.keys[0] as string) === TRANSFER_EVENT_KEY,
    );
    expect(transfer?.keys.slice(1).map(BigInt)).toEqual([
      BigInt(alice.address),
      BigInt(bob.address),
    ]);
    expect(transfer?.data.map(BigInt)).toEqual(u(half));
    expect(u256Of(await emu.view(vUsdc, 'balance_of', [bob.address]))).toBe(half);

    const approved = await emu.transact(alice, [
      call(vUsdc, 'approve', [BigInt(bob.address), ...u(100n)]),
    ]);
    expect(approved.events.some((e) => BigInt(e.keys[0] as string) === APPROVAL_EVENT_KEY)).toBe(
      true,
    );
    expect(u256Of(await emu.view(vUsdc, 'allowance', [alice.address, bob.address]))).toBe(100n);
    const over = await emu.transact(bob, [
      call(vUsdc, 'transfer_from', [BigInt(alice.address), BigInt(bob.address), ...u(101n)]),
    ]);
    expect(reason(over)).toContain('ERC20: insufficient allowance');
    const spent = await emu.transact(bob, [
      call(vUsdc, 'transfer_from', [BigInt(alice.address), BigInt(bob.address), ...u(60n)]),
    ]);
    expect(spent.execution_status, reason(spent)).toBe('SUCCEEDED');
    expect(u256Of(await emu.view(vUsdc, 'allowance', [alice.address, bob.address]))).toBe(40n);
    expect(u256Of(await emu.view(vUsdc, 'balance_of', [bob.address]))).toBe(half + 60n);
    const tooMuch = await emu.transact(alice, [
      call(vUsdc, 'transfer', [BigInt(bob.address), ...u(shares)]),
    ]);
    expect(reason(tooMuch)).toContain('ERC20: insufficient balance');

    // a spender redeems for the owner by spending its allowance; without one it is refused
    const refused = await emu.transact(bob, [
      call(vUsdc, 'redeem', [...u(41n), BigInt(bob.address), BigInt(alice.address)]),
    ]);
    expect(reason(refused)).toContain('ERC20: insufficient allowance');
    const redeemed = await emu.transact(bob, [
      call(vUsdc, 'redeem', [...u(40n), BigInt(bob.address), BigInt(alice.address)]),
    ]);
    expect(redeemed.execution_status, reason(redeemed)).toBe('SUCCEEDED');
    expect(u256Of(await emu.view(vUsdc, 'allowance', [alice.address, bob.address]))).toBe(0n);
  });

  it('mint, preview_mint, preview_withdraw, max_deposit, max_mint round as the source: the pool never loses', async () => {
    const wallet = await emu.wallet();
    const vEth = await vTokenOf(ETH.address);
    const shares = 10n ** 17n + 7n;
    const previewMint = u256Of(await emu.view(vEth, 'preview_mint', h(shares)));
    const toAssetsDown = u256Of(await emu.view(vEth, 'convert_to_assets', h(shares)));
    // mint rounds the assets up, convert_to_assets down
    expect(previewMint - toAssetsDown).toBeGreaterThanOrEqual(0n);
    expect(previewMint - toAssetsDown).toBeLessThanOrEqual(1n);
    const before = await emu.balance(ETH.address, wallet.address);
    const minted = await emu.transact(wallet, [
      approveCall(ETH.address, vEth, previewMint + 10n),
      call(vEth, 'mint', [...u(shares), BigInt(wallet.address)]),
    ]);
    expect(minted.execution_status, reason(minted)).toBe('SUCCEEDED');
    expect(u256Of(await emu.view(vEth, 'balance_of', [wallet.address]))).toBe(shares);
    const paid = before - (await emu.balance(ETH.address, wallet.address));
    expect(paid).toBeGreaterThanOrEqual(previewMint);
    expect(paid).toBeLessThanOrEqual(previewMint + 1n);

    const assets = 5n * 10n ** 16n;
    const previewWithdraw = u256Of(await emu.view(vEth, 'preview_withdraw', h(assets)));
    const toSharesDown = u256Of(await emu.view(vEth, 'convert_to_shares', h(assets)));
    expect(previewWithdraw - toSharesDown).toBeGreaterThanOrEqual(0n);
    expect(previewWithdraw - toSharesDown).toBeLessThanOrEqual(1n);

    const config = await emu.view(POOL, 'asset_config', [ETH.address]);
    const maxMint = u256Of(await emu.view(vEth, 'max_mint', [wallet.address]));
    expect(maxMint).toBe((1n << 128n) - 1n - u256Of(config, 0));
    expect(u256Of(await emu.view(vEth, 'max_deposit', [wallet.address]))).toBeGreaterThan(0n);
    const total = u256Of(await emu.view(vEth, 'total_assets'));
    const supply = u256Of(await emu.view(vEth, 'total_supply'));
    expect(total).toBe(u256Of(await emu.view(vEth, 'convert_to_assets', h(supply))));
  });
});

describe('liquidation (liquidate_position, the LiquidatePosition event, the knob)', () => {
  let own: Emulator;
  beforeAll(async () => {
    own = await startEmulator();
  });
  afterAll(async () => {
    await own?.close();
  });

  const liquidateCall = (
    user: EmulatorWallet,
    minCollateral: bigint,
    debtToRepay: bigint,
  ): EmulatorCall => ({
    to: POOL,
    selector: selectorOf('liquidate_position'),
    calldata: [
      BigInt(ETH.address),
      BigInt(USDC.address),
      BigInt(user.address),
      minCollateral % (1n << 128n),
      minCollateral >> 128n,
      debtToRepay % (1n << 128n),
      debtToRepay >> 128n,
    ],
  });

  it('a healthy position is refused (not-undercollateralized); below max LTV a peer liquidates part, with its bonus', async () => {
    const saved = emu;
    emu = own;
    try {
      // tests run shuffled: this one sets the price it starts from
      await emu.post('/sandbox/chain/price', { token: 'ETH', usd: '3000' });
      const borrower = await emu.wallet();
      const liquidator = await emu.wallet();
      const lent = await borrow(borrower, 2n * E18, 4_000n * E6);
      expect(lent.execution_status, reason(lent)).toBe('SUCCEEDED');
      const healthy = await emu.transact(liquidator, [
        approveCall(USDC.address, POOL, 1_000n * E6),
        liquidateCall(borrower, 0n, 1_000n * E6),
      ]);
      expect(reason(healthy)).toContain('not-undercollateralized');
      // $3000 → $2400: 4800 × 0.8 = 3840 < 4000, liquidatable; the collateral still covers the debt
      await emu.post('/sandbox/chain/price', { token: 'ETH', usd: '2400' });
      const before = await position(borrower, ETH.address, USDC.address);
      const ethBefore = await emu.balance(ETH.address, liquidator.address);
      const usdcBefore = await emu.balance(USDC.address, liquidator.address);
      const repay = 1_000n * E6;
      const tooGreedy = await emu.transact(liquidator, [
        approveCall(USDC.address, POOL, repay),
        liquidateCall(borrower, E18, repay),
      ]);
      expect(reason(tooGreedy)).toContain('less-than-min-collateral');
      const done = await emu.transact(liquidator, [
        approveCall(USDC.address, POOL, repay),
        liquidateCall(borrower, 0n, repay),
      ]);
      expect(done.execution_status, reason(done)).toBe('SUCCEEDED');
      // collateral = 1000 USD / 2400 / 0.9, rounded down at each step as the source
      const seized = (((((repay * E18) / E6) * E18) / (2_400n * E18)) * E18) / ((9n * E18) / 10n);
      const event = done.events.find(
        (e) => BigInt(e.keys[0] as string) === VESU_LIQUIDATE_POSITION_EVENT,
      );
      expect(event?.keys.slice(1).map(BigInt)).toEqual([
        BigInt(ETH.address),
        BigInt(USDC.address),
        BigInt(borrower.address),
        BigInt(liquidator.address),
      ]);
      expect(event?.data).toHaveLength(14);
      const data = (event?.data ?? []).map(BigInt);
      expect(fromI257Felts(data[0]!, data[1]!, data[2]!)).toBe(-seized);
      expect(fromI257Felts(data[6]!, data[7]!, data[8]!)).toBe(-repay);
      expect(u256Of(data, 12)).toBe(0n);
      expect(await emu.balance(ETH.address, liquidator.address)).toBe(ethBefore + seized);
      expect(await emu.balance(USDC.address, liquidator.address)).toBe(usdcBefore - repay);
      const after = await position(borrower, ETH.address, USDC.address);
      expect(after.collateral).toBeLessThanOrEqual(before.collateral - seized + 1n);
      expect(after.collateral).toBeGreaterThanOrEqual(before.collateral - seized - 1n);
      // interest accrues by the second between the read and the liquidation (~10 units a second)
      expect(after.debt).toBeLessThanOrEqual(before.debt - repay + 200n);
      expect(after.debt).toBeGreaterThanOrEqual(before.debt - repay);
    } finally {
      emu = saved;
    }
  });

  it('the knob liquidates all; under water the shortfall is bad debt the lenders bear; a second time it is refused', async () => {
    const saved = emu;
    emu = own;
    try {
      await emu.post('/sandbox/chain/price', { token: 'ETH', usd: '3000' });
      const borrower = await emu.wallet();
      expect((await borrow(borrower, E18, 2_000n * E6)).execution_status).toBe('SUCCEEDED');
      const healthy = await emu.post('/sandbox/chain/liquidate', {
        collateral: 'ETH',
        debt: 'USDC',
        user: borrower.address,
      });
      expect(healthy.status).toBe(409);
      expect(healthy.json).toMatchObject({ code: 'not-undercollateralized' });
      // $1500: 1 ETH × 0.9 = $1350 of collateral against $2000 of debt
      await emu.post('/sandbox/chain/price', { token: 'ETH', usd: '1500' });
      const usdcReserve = u256Of(await emu.view(POOL, 'asset_config', [USDC.address]), 4);
      const p = await position(borrower, ETH.address, USDC.address);
      const done = await emu.post('/sandbox/chain/liquidate', {
        collateral: 'ETH',
        debt: 'USDC',
        user: borrower.address,
      });
      expect(done.status, JSON.stringify(done.json)).toBe(200);
      const answer = done.json as Record<string, string>;
      expect(answer.collateralSeized).toBe(p.collateral.toString());
      expect(answer.debtRepaid).toBe(p.debt.toString());
      // bad debt = (debt value − collateral value × 0.9) in USDC, rounded down
      const debtValue = (p.debt * E18 + E6 - 1n) / E6;
      const factored = (((p.collateral * 1_500n * E18) / E18) * 9n) / 10n;
      expect(BigInt(answer.badDebt!)).toBe(((debtValue - factored) * E6) / E18);
      expect(answer.collateralLeft).toBe('0');
      expect(answer.debtLeft).toBe('0');
      const receipt = (
        await emu.rpc('/rpc', 'starknet_getTransactionReceipt', {
          transaction_hash: answer.transactionHash,
        })
      ).result as EmulatorReceipt;
      expect(receipt.execution_status).toBe('SUCCEEDED');
      expect(
        receipt.events.some((e) => BigInt(e.keys[0] as string) === VESU_LIQUIDATE_POSITION_EVENT),
      ).toBe(true);
      // the reserve got back what the liquidator paid: the debt less the bad debt
      const reserveAfter = u256Of(await emu.view(POOL, 'asset_config', [USDC.address]), 4);
      expect(reserveAfter - usdcReserve).toBe(p.debt - BigInt(answer.badDebt!));
      const again = await emu.post('/sandbox/chain/liquidate', {
        collateral: 'ETH',
        debt: 'USDC',
        user: borrower.address,
      });
      expect(again.status).toBe(409);
      for (const bad of [
        { collateral: 'ETH', debt: 'ETH', user: borrower.address },
        { collateral: 'ETH', debt: 'USDC', user: 'nope' },
        { collateral: 'ETH', debt: 'USDC', user: borrower.address, debtToRepay: '-1' },
      ])
        expect((await emu.post('/sandbox/chain/liquidate', bad)).status).toBe(400);
    } finally {
      emu = saved;
    }
  });
});
