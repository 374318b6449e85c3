/**
 * A removed staker on the chain emulator (docs/sandbox-chain.md "Staking"), held against the
 * official contracts' rules (starkware-libs/starknet-staking: the staking contract's
 * `unstake_action` → `remove_staker` + `transfer_to_pools_when_unstake`, the pool's
 * `set_staker_removed` and its behaviour once `staker_removed` is set), over JSON-RPC on
 * 127.0.0.1. Its own emulator: a removal is for good.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectorOf } from '../../shared/erc20.js';
import {
  findValidator,
  POOL_EVENT,
  POOL_SELECTOR,
  STAKING_CONTRACT,
  validatorsFor,
} from '../../shared/staking.js';
import { resolveToken } from '../../shared/tokens.js';
import {
  approveCall,
  type Emulator,
  type EmulatorCall,
  type EmulatorReceipt as Receipt,
  type EmulatorWallet as Wallet,
  startEmulator,
} from '../../test/helpers/chain-emulator.js';
import { EPOCH_SECONDS, EXIT_WINDOW_SECONDS, memberRewards } from './staking.js';

const STRK = resolveToken('mainnet', 'STRK').address;
const VALIDATORS = validatorsFor('mainnet', { sandbox: true });
const ALPHA = findValidator(VALIDATORS, 'Sandbox Alpha')!;
const BETA = findValidator(VALIDATORS, 'Sandbox Beta')!;
const ALPHA_COMMISSION = 500n;
const E18 = 10n ** 18n;
const MIN_STAKE = 20_000n * E18;

let emu: Emulator;

const view = (address: string, entrypoint: string, calldata: string[] = []) =>
  emu.view(address, entrypoint, calldata);
const transact = (wallet: Wallet, calls: EmulatorCall[]): Promise<Receipt> =>
  emu.transact(wallet, calls);
const poolCall = (pool: string, selector: bigint, calldata: bigint[]): EmulatorCall => ({
  to: pool,
  selector,
  calldata,
});
const enter = (wallet: Wallet, pool: string, amount: bigint): Promise<Receipt> =>
  transact(wallet, [
    approveCall(STRK, pool, amount),
    poolCall(pool, POOL_SELECTOR.enter_delegation_pool, [BigInt(wallet.address), amount]),
  ]);
const memberInfo = (pool: string, member: string) =>
  view(pool, 'get_pool_member_info_v1', [member]);
const removeStaker = (staker: string) => emu.post('/sandbox/chain/remove-staker', { staker });
const reverted = async (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'no revert',
    (error: unknown) => String(error),
  );

let staying: Wallet;
let claimer: Wallet;
let exiting: Wallet;
let removedAt: { epoch: bigint };

beforeAll(async () => {
  emu = await startEmulator();
  staying = await emu.wallet();
  claimer = await emu.wallet();
  exiting = await emu.wallet();
  expect((await enter(staying, ALPHA.pool, 1_000n * E18)).execution_status).toBe('SUCCEEDED');
  expect((await enter(claimer, ALPHA.pool, 3_000n * E18)).execution_status).toBe('SUCCEEDED');
  expect((await enter(exiting, ALPHA.pool, 500n * E18)).execution_status).toBe('SUCCEEDED');
  // an exit started before the removal keeps its window
  const intent = await transact(exiting, [
    poolCall(ALPHA.pool, POOL_SELECTOR.exit_delegation_pool_intent, [200n * E18]),
  ]);
  expect(intent.execution_status).toBe('SUCCEEDED');
  await emu.advance(Number(EPOCH_SECONDS) * 2);
  const totalBefore = (await view(STAKING_CONTRACT.mainnet, 'get_total_stake'))[0] as bigint;
  const { status, json } = await removeStaker(ALPHA.staker);
  expect(status).toBe(200);
  const events = (json as { events: Array<{ from: string; keys: string[]; data: string[] }> })
    .events;
  // DeleteStaker from the staking contract, then StakerRemoved from the pool (remove_staker
  // emits before transfer_to_pools_when_unstake calls set_staker_removed)
  expect(events.map((e) => [BigInt(e.from), BigInt(e.keys[0] as string)])).toEqual([
    [BigInt(STAKING_CONTRACT.mainnet), selectorOf('DeleteStaker')],
    [BigInt(ALPHA.pool), POOL_EVENT.StakerRemoved],
  ]);
  expect(events[0]?.keys.map(BigInt)).toEqual([selectorOf('DeleteStaker'), BigInt(ALPHA.staker)]);
  // reward_address, operational_address, pool_contracts: Span (length, then each)
  expect(events[0]?.data.slice(2).map(BigInt)).toEqual([1n, BigInt(ALPHA.pool)]);
  expect(events[1]?.keys.map(BigInt)).toEqual([POOL_EVENT.StakerRemoved, BigInt(ALPHA.staker)]);
  expect(events[1]?.data).toEqual([]);
  const totalAfter = (await view(STAKING_CONTRACT.mainnet, 'get_total_stake'))[0] as bigint;
  // the staker's own stake and its pool's delegation leave the total (the intent already had)
  expect(totalBefore - totalAfter).toBe(MIN_STAKE + 4_300n * E18);
  removedAt = { epoch: 2n };
});

afterAll(async () => {
  await emu?.close();
});

describe('the staking contract forgets a removed staker', () => {
  it('staker_pool_info and staker_info_v1 revert STAKER_NOT_EXISTS; get_staker_info_v1 is None', async () => {
    expect(
      await reverted(view(STAKING_CONTRACT.mainnet, 'staker_pool_info', [ALPHA.staker])),
    ).toContain('STAKER_NOT_EXISTS');
    expect(
      await reverted(view(STAKING_CONTRACT.mainnet, 'staker_info_v1', [ALPHA.staker])),
    ).toContain('STAKER_NOT_EXISTS');
    expect(await view(STAKING_CONTRACT.mainnet, 'get_staker_info_v1', [ALPHA.staker])).toEqual([
      1n,
    ]);
    // another validator is untouched
    expect((await view(STAKING_CONTRACT.mainnet, 'get_staker_info_v1', [BETA.staker]))[0]).toBe(0n);
  });

  it('a second removal, or an unknown staker, is refused and changes nothing', async () => {
    const again = await removeStaker(ALPHA.staker);
    expect(again.status).toBe(400);
    expect(JSON.stringify(again.json)).toContain('STAKER_NOT_EXISTS');
    expect((await removeStaker('0x99')).status).toBe(400);
    expect((await removeStaker('not an address')).status).toBe(400);
  });
});

describe("the pool once staker_removed is set (the pool's own code)", () => {
  it('contract_parameters_v1 says staker_removed and commission 0', async () => {
    expect(await view(ALPHA.pool, 'contract_parameters_v1')).toEqual([
      BigInt(ALPHA.staker),
      1n,
      BigInt(STAKING_CONTRACT.mainnet),
      BigInt(STRK),
      0n,
    ]);
  });

  it('enter and add are refused with STAKER_INACTIVE; nothing moves', async () => {
    const newcomer = await emu.wallet();
    const before = await emu.balance(STRK, newcomer.address);
    const refused = await enter(newcomer, ALPHA.pool, E18);
    expect(refused.revert_reason).toContain('STAKER_INACTIVE');
    const add = await transact(staying, [
      approveCall(STRK, ALPHA.pool, E18),
      poolCall(ALPHA.pool, POOL_SELECTOR.add_to_delegation_pool, [BigInt(staying.address), E18]),
    ]);
    expect(add.revert_reason).toContain('STAKER_INACTIVE');
    expect(await emu.balance(STRK, newcomer.address)).toBe(before);
  });

  it('no reward accrues after the removal; the earned ones are claimable, commission 0 said', async () => {
    await emu.advance(Number(EPOCH_SECONDS) * 5);
    const info = await memberInfo(ALPHA.pool, claimer.address);
    // Some(reward_address, amount, unclaimed, commission, unpool_amount, None)
    expect(info[2]).toBe(3_000n * E18);
    expect(info[3]).toBe(memberRewards(3_000n * E18, removedAt.epoch, ALPHA_COMMISSION));
    expect(info[3]).toBeGreaterThan(0n);
    expect(info[4]).toBe(0n);
    const before = await emu.balance(STRK, claimer.address);
    const claim = await transact(claimer, [
      poolCall(ALPHA.pool, POOL_SELECTOR.claim_rewards, [BigInt(claimer.address)]),
    ]);
    expect(claim.execution_status).toBe('SUCCEEDED');
    expect(await emu.balance(STRK, claimer.address)).toBe(before + (info[3] as bigint));
  });

  it('an exit intent is withdrawable at once; a second intent while one runs is UNDELEGATE_IN_PROGRESS', async () => {
    const chainTime = await emu.advance(1);
    const intent = await transact(staying, [
      poolCall(ALPHA.pool, POOL_SELECTOR.exit_delegation_pool_intent, [400n * E18]),
    ]);
    expect(intent.execution_status).toBe('SUCCEEDED');
    const exitEvent = intent.events.find(
      (e) => BigInt(e.keys[0] as string) === POOL_EVENT.PoolMemberExitIntent,
    );
    // exit_timestamp = now (no window), amount
    const exitAt = BigInt(exitEvent?.data[0] as string);
    expect(exitAt).toBeGreaterThanOrEqual(BigInt(chainTime));
    expect(exitAt).toBeLessThan(BigInt(chainTime) + EXIT_WINDOW_SECONDS);
    const again = await transact(staying, [
      poolCall(ALPHA.pool, POOL_SELECTOR.exit_delegation_pool_intent, [100n * E18]),
    ]);
    expect(again.revert_reason).toContain('UNDELEGATE_IN_PROGRESS');
    const before = await emu.balance(STRK, staying.address);
    const action = await transact(staying, [
      poolCall(ALPHA.pool, POOL_SELECTOR.exit_delegation_pool_action, [BigInt(staying.address)]),
    ]);
    expect(action.execution_status).toBe('SUCCEEDED');
    expect(await emu.balance(STRK, staying.address)).toBe(before + 400n * E18);
  });

  it('an exit started before the removal keeps its window, then pays', async () => {
    const early = await transact(exiting, [
      poolCall(ALPHA.pool, POOL_SELECTOR.exit_delegation_pool_action, [BigInt(exiting.address)]),
    ]);
    expect(early.revert_reason).toContain('INTENT_WINDOW_NOT_FINISHED');
    await emu.advance(Number(EXIT_WINDOW_SECONDS));
    const before = await emu.balance(STRK, exiting.address);
    const action = await transact(exiting, [
      poolCall(ALPHA.pool, POOL_SELECTOR.exit_delegation_pool_action, [BigInt(exiting.address)]),
    ]);
    expect(action.execution_status).toBe('SUCCEEDED');
    expect(await emu.balance(STRK, exiting.address)).toBe(before + 200n * E18);
  });

  it('set_staker_removed is the staking contract’s alone', async () => {
    const wallet = await emu.wallet();
    const receipt = await transact(wallet, [
      poolCall(BETA.pool, selectorOf('set_staker_removed'), []),
    ]);
    expect(receipt.revert_reason).toContain('CALLER_IS_NOT_STAKING_CONTRACT');
    expect((await view(BETA.pool, 'contract_parameters_v1'))[1]).toBe(0n);
  });
});
