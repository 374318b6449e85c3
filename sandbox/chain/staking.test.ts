/**
 * The staking contract and the delegation pools of the chain emulator, over its JSON-RPC and
 * SNIP-29 paymaster on 127.0.0.1: views through starknet.js's RpcProvider.callContract, stakes
 * through signed outside executions, the sandbox clock through `/sandbox/chain/advance`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findValidator,
  POOL_EVENT,
  POOL_SELECTOR,
  STAKING_CONTRACT,
  STAKING_SELECTOR,
  validatorsFor,
} from '../../shared/staking.js';
import { resolveToken } from '../../shared/tokens.js';
import {
  approveCall,
  type Emulator,
  type EmulatorCall,
  type EmulatorReceipt as Receipt,
  type EmulatorWallet as Wallet,
  hex,
  startEmulator,
} from '../../test/helpers/chain-emulator.js';
import { EPOCH_SECONDS, EXIT_WINDOW_SECONDS, memberRewards } from './staking.js';

const STRK = resolveToken('mainnet', 'STRK').address;
const VALIDATORS = validatorsFor('mainnet', { sandbox: true });
const ALPHA = findValidator(VALIDATORS, 'Sandbox Alpha')!;
const BETA = findValidator(VALIDATORS, 'Sandbox Beta')!;
const LEAVING = findValidator(VALIDATORS, 'Sandbox Leaving')!;
const BRAAVOS = findValidator(VALIDATORS, 'Braavos')!;
const ALPHA_COMMISSION = 500n;
const E18 = 10n ** 18n;

let emu: Emulator;

const newWallet = (): Promise<Wallet> => emu.wallet();
const transact = (wallet: Wallet, calls: EmulatorCall[]): Promise<Receipt> =>
  emu.transact(wallet, calls);
const rpc = (path: '/rpc' | '/paymaster', method: string, params: unknown) =>
  emu.rpc(path, method, params);
const post = (path: string, body: unknown) => emu.post(path, body);
const view = (address: string, entrypoint: string, calldata: string[] = []) =>
  emu.view(address, entrypoint, calldata);
const strkBalance = (owner: string): Promise<bigint> => emu.balance(STRK, owner);
const advance = (seconds: number): Promise<number> => emu.advance(seconds);
const approve = (spender: string, amount: bigint): EmulatorCall =>
  approveCall(STRK, spender, amount);
const enter = (pool: string, rewardAddress: string, amount: bigint): EmulatorCall => ({
  to: pool,
  selector: POOL_SELECTOR.enter_delegation_pool,
  calldata: [BigInt(rewardAddress), amount],
});
const poolCall = (pool: string, selector: bigint, calldata: bigint[]): EmulatorCall => ({
  to: pool,
  selector,
  calldata,
});

async function stake(wallet: Wallet, pool: string, amount: bigint): Promise<Receipt> {
  const receipt = await transact(wallet, [
    approve(pool, amount),
    enter(pool, wallet.address, amount),
  ]);
  expect(receipt.revert_reason).toBeUndefined();
  return receipt;
}

const memberInfo = async (pool: string, member: string) =>
  view(pool, 'get_pool_member_info_v1', [member]);

beforeAll(async () => {
  emu = await startEmulator();
});

afterAll(async () => {
  await emu?.close();
});

describe('staking contract views', () => {
  it('staker_pool_info gives each validator its pool, token and commission', async () => {
    for (const validator of VALIDATORS) {
      const info = await view(STAKING_CONTRACT.mainnet, 'staker_pool_info', [validator.staker]);
      // Some(commission), then a Span of one PoolInfo { pool_contract, token_address, amount }
      expect(info[0]).toBe(0n);
      expect(info[2]).toBe(1n);
      expect(info[3]).toBe(BigInt(validator.pool));
      expect(info[4]).toBe(BigInt(STRK));
    }
    const missing = await rpc('/rpc', 'starknet_call', {
      request: {
        contract_address: STAKING_CONTRACT.mainnet,
        entry_point_selector: hex(STAKING_SELECTOR.staker_pool_info),
        calldata: ['0x1234'],
      },
      block_id: 'latest',
    });
    expect(missing.error?.code).toBe(40);
    expect(JSON.stringify(missing.error?.data)).toContain('STAKER_NOT_EXISTS');
  });

  it('contract_parameters_v1 names the 7-day exit window; epochs and active tokens', async () => {
    const params = await view(STAKING_CONTRACT.mainnet, 'contract_parameters_v1');
    expect(params).toHaveLength(6);
    expect(params[1]).toBe(BigInt(STRK));
    expect(params[5]).toBe(EXIT_WINDOW_SECONDS);
    expect(await view(STAKING_CONTRACT.mainnet, 'get_active_tokens')).toEqual([1n, BigInt(STRK)]);
    const [before] = await view(STAKING_CONTRACT.mainnet, 'get_current_epoch');
    await advance(Number(EPOCH_SECONDS) * 2);
    const [after] = await view(STAKING_CONTRACT.mainnet, 'get_current_epoch');
    expect((after as bigint) - (before as bigint)).toBe(2n);
  });

  it('the leaving validator has an unstake time; an active one none', async () => {
    const leaving = await view(STAKING_CONTRACT.mainnet, 'get_staker_info_v1', [LEAVING.staker]);
    // Some(StakerInfoV1 { reward_address, operational_address, unstake_time: Some(t), … })
    expect(leaving[0]).toBe(0n);
    expect(leaving[3]).toBe(0n);
    const active = await view(STAKING_CONTRACT.mainnet, 'get_staker_info_v1', [ALPHA.staker]);
    expect(active[3]).toBe(1n);
    expect(await view(STAKING_CONTRACT.mainnet, 'get_staker_info_v1', ['0x99'])).toEqual([1n]);
  });

  it('a pool names its staker, the staking contract, its token and commission', async () => {
    const params = await view(ALPHA.pool, 'contract_parameters_v1');
    expect(params).toEqual([
      BigInt(ALPHA.staker),
      0n,
      BigInt(STAKING_CONTRACT.mainnet),
      BigInt(STRK),
      ALPHA_COMMISSION,
    ]);
  });
});

describe('delegation pool', () => {
  it('enter moves the STRK into the pool; a second enter reverts POOL_MEMBER_EXISTS', async () => {
    const wallet = await newWallet();
    const before = await strkBalance(wallet.address);
    const receipt = await stake(wallet, ALPHA.pool, 1_000n * E18);
    expect(await strkBalance(wallet.address)).toBe(before - 1_000n * E18);
    const newMember = receipt.events.find(
      (e) => BigInt(e.keys[0] as string) === POOL_EVENT.NewPoolMember,
    );
    expect(newMember?.keys.map(BigInt)).toEqual([
      POOL_EVENT.NewPoolMember,
      BigInt(wallet.address),
      BigInt(ALPHA.staker),
    ]);
    expect(newMember?.data.map(BigInt)).toEqual([BigInt(wallet.address), 1_000n * E18]);
    const info = await memberInfo(ALPHA.pool, wallet.address);
    // Some, reward_address, amount, unclaimed, commission, unpool_amount, unpool_time None
    expect(info).toEqual([0n, BigInt(wallet.address), 1_000n * E18, 0n, ALPHA_COMMISSION, 0n, 1n]);
    const again = await transact(wallet, [
      approve(ALPHA.pool, E18),
      enter(ALPHA.pool, wallet.address, E18),
    ]);
    expect(again.execution_status).toBe('REFUSED_AT_BUILD');
    expect(again.revert_reason).toContain('POOL_MEMBER_EXISTS');
  });

  it('not a member: get_… is None, pool_member_info_v1 and add revert POOL_MEMBER_DOES_NOT_EXIST', async () => {
    const wallet = await newWallet();
    expect(await memberInfo(BETA.pool, wallet.address)).toEqual([1n]);
    const strict = await rpc('/rpc', 'starknet_call', {
      request: {
        contract_address: BETA.pool,
        entry_point_selector: hex(POOL_SELECTOR.pool_member_info_v1),
        calldata: [wallet.address],
      },
      block_id: 'latest',
    });
    expect(JSON.stringify(strict.error?.data)).toContain('POOL_MEMBER_DOES_NOT_EXIST');
    const add = await transact(wallet, [
      approve(BETA.pool, E18),
      poolCall(BETA.pool, POOL_SELECTOR.add_to_delegation_pool, [BigInt(wallet.address), E18]),
    ]);
    expect(add.revert_reason).toContain('POOL_MEMBER_DOES_NOT_EXIST');
  });

  it('the leaving validator refuses a stake with STAKER_INACTIVE; a zero amount AMOUNT_IS_ZERO', async () => {
    const wallet = await newWallet();
    const before = await strkBalance(wallet.address);
    const refused = await transact(wallet, [
      approve(LEAVING.pool, E18),
      enter(LEAVING.pool, wallet.address, E18),
    ]);
    expect(refused.execution_status).toBe('REFUSED_AT_BUILD');
    expect(refused.revert_reason).toContain('STAKER_INACTIVE');
    const zero = await transact(wallet, [enter(BRAAVOS.pool, wallet.address, 0n)]);
    expect(zero.revert_reason).toContain('AMOUNT_IS_ZERO');
    // sponsored, and a revert moves nothing
    expect(await strkBalance(wallet.address)).toBe(before);
  });

  it('add_to_delegation_pool adds and returns the new amount', async () => {
    const wallet = await newWallet();
    await stake(wallet, BETA.pool, 100n * E18);
    const receipt = await transact(wallet, [
      approve(BETA.pool, 50n * E18),
      poolCall(BETA.pool, POOL_SELECTOR.add_to_delegation_pool, [
        BigInt(wallet.address),
        50n * E18,
      ]),
    ]);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    const changed = receipt.events.filter(
      (e) => BigInt(e.keys[0] as string) === POOL_EVENT.PoolMemberBalanceChanged,
    );
    expect(changed.at(-1)?.data.map(BigInt)).toEqual([100n * E18, 150n * E18]);
    expect((await memberInfo(BETA.pool, wallet.address))[2]).toBe(150n * E18);
  });

  it('rewards accrue per finished epoch less commission; claim pays exactly the unclaimed amount', async () => {
    const wallet = await newWallet();
    const amount = 10_000n * E18;
    await stake(wallet, ALPHA.pool, amount);
    expect((await memberInfo(ALPHA.pool, wallet.address))[3]).toBe(0n);
    await advance(Number(EPOCH_SECONDS) * 3);
    const info = await memberInfo(ALPHA.pool, wallet.address);
    const unclaimed = info[3] as bigint;
    // the epoch it entered in pays too (it held the amount when that epoch ended): 3 epochs
    expect(unclaimed).toBe(memberRewards(amount, 3n, ALPHA_COMMISSION));
    expect(unclaimed).toBeGreaterThan(0n);
    const before = await strkBalance(wallet.address);
    const receipt = await transact(wallet, [
      poolCall(ALPHA.pool, POOL_SELECTOR.claim_rewards, [BigInt(wallet.address)]),
    ]);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    expect(await strkBalance(wallet.address)).toBe(before + unclaimed);
    const claimed = receipt.events.find(
      (e) => BigInt(e.keys[0] as string) === POOL_EVENT.PoolMemberRewardClaimed,
    );
    expect(claimed?.data.map(BigInt)).toEqual([unclaimed]);
    expect((await memberInfo(ALPHA.pool, wallet.address))[3]).toBe(0n);
  });

  it('exit: intent, action refused before the window, paid after it; a new intent restarts the timer', async () => {
    const wallet = await newWallet();
    await stake(wallet, BETA.pool, 300n * E18);
    const intent = await transact(wallet, [
      poolCall(BETA.pool, POOL_SELECTOR.exit_delegation_pool_intent, [100n * E18]),
    ]);
    expect(intent.execution_status).toBe('SUCCEEDED');
    const exitEvent = intent.events.find(
      (e) => BigInt(e.keys[0] as string) === POOL_EVENT.PoolMemberExitIntent,
    );
    const exitAt = BigInt(exitEvent?.data[0] as string);
    let info = await memberInfo(BETA.pool, wallet.address);
    expect(info.slice(2, 3)).toEqual([200n * E18]);
    expect(info.slice(5)).toEqual([100n * E18, 0n, exitAt]);

    const early = await transact(wallet, [
      poolCall(BETA.pool, POOL_SELECTOR.exit_delegation_pool_action, [BigInt(wallet.address)]),
    ]);
    expect(early.revert_reason).toContain('INTENT_WINDOW_NOT_FINISHED');

    await advance(3_600);
    const restarted = await transact(wallet, [
      poolCall(BETA.pool, POOL_SELECTOR.exit_delegation_pool_intent, [120n * E18]),
    ]);
    const restartedAt = BigInt(
      restarted.events.find((e) => BigInt(e.keys[0] as string) === POOL_EVENT.PoolMemberExitIntent)
        ?.data[0] as string,
    );
    expect(restartedAt).toBeGreaterThanOrEqual(exitAt + 3_600n);
    info = await memberInfo(BETA.pool, wallet.address);
    expect(info[2]).toBe(180n * E18);
    expect(info[5]).toBe(120n * E18);

    await advance(Number(EXIT_WINDOW_SECONDS) + 60);
    const before = await strkBalance(wallet.address);
    const action = await transact(wallet, [
      poolCall(BETA.pool, POOL_SELECTOR.exit_delegation_pool_action, [BigInt(wallet.address)]),
    ]);
    expect(action.execution_status).toBe('SUCCEEDED');
    expect(await strkBalance(wallet.address)).toBe(before + 120n * E18);
    info = await memberInfo(BETA.pool, wallet.address);
    expect(info.slice(5)).toEqual([0n, 1n]);
    const none = await transact(wallet, [
      poolCall(BETA.pool, POOL_SELECTOR.exit_delegation_pool_action, [BigInt(wallet.address)]),
    ]);
    expect(none.revert_reason).toContain('MISSING_UNDELEGATE_INTENT');
  });

  it('an intent above the stake is AMOUNT_TOO_HIGH; 0 cancels the running intent', async () => {
    const wallet = await newWallet();
    await stake(wallet, BETA.pool, 10n * E18);
    const high = await transact(wallet, [
      poolCall(BETA.pool, POOL_SELECTOR.exit_delegation_pool_intent, [11n * E18]),
    ]);
    expect(high.revert_reason).toContain('AMOUNT_TOO_HIGH');
    await transact(wallet, [
      poolCall(BETA.pool, POOL_SELECTOR.exit_delegation_pool_intent, [4n * E18]),
    ]);
    await transact(wallet, [poolCall(BETA.pool, POOL_SELECTOR.exit_delegation_pool_intent, [0n])]);
    const info = await memberInfo(BETA.pool, wallet.address);
    expect(info[2]).toBe(10n * E18);
    expect(info.slice(5)).toEqual([0n, 1n]);
  });

  it('switch_delegation_pool moves an amount in its exit window to another validator', async () => {
    const wallet = await newWallet();
    await stake(wallet, BETA.pool, 50n * E18);
    await transact(wallet, [
      poolCall(BETA.pool, POOL_SELECTOR.exit_delegation_pool_intent, [30n * E18]),
    ]);
    const switched = await transact(wallet, [
      poolCall(BETA.pool, POOL_SELECTOR.switch_delegation_pool, [
        BigInt(ALPHA.staker),
        BigInt(ALPHA.pool),
        20n * E18,
      ]),
    ]);
    expect(switched.execution_status).toBe('SUCCEEDED');
    expect((await memberInfo(BETA.pool, wallet.address))[5]).toBe(10n * E18);
    expect((await memberInfo(ALPHA.pool, wallet.address))[2]).toBe(20n * E18);
  });
});

describe('the sandbox clock', () => {
  it('advance moves the latest block timestamp and refuses a bad duration', async () => {
    const before = (await emu.provider.getBlock('latest')).timestamp;
    const chainTime = await advance(7_200);
    const latest = await emu.provider.getBlock('latest');
    expect(latest.timestamp).toBe(chainTime);
    expect(chainTime).toBeGreaterThanOrEqual(before + 7_200);
    expect((await post('/sandbox/chain/advance', { seconds: 0 })).status).toBe(400);
    expect((await post('/sandbox/chain/advance', { seconds: 401 * 86_400 })).status).toBe(400);
    expect((await post('/sandbox/chain/advance', { seconds: 1.5 })).status).toBe(400);
  });
});
