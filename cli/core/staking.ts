/**
 * Native STRK staking reads (docs/architecture.md "Adding a leg type"; the fact sheet's views):
 * the validators known for a network (shared/staking.ts presets, or any staker address, checked
 * against the staking contract), a validator's commission and whether it takes new stakes, the
 * account's pool membership, the chain's time, and the `staking` command's document. Every read
 * is a view call; reads of one plan run in parallel.
 */
import { formatAmount } from '../../shared/amount.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import {
  findValidator,
  stakingContractFor,
  type Validator,
  validatorsFor,
} from '../../shared/staking.js';
import { FELT_HEX, feltHex } from '../../shared/felt.js';
import {
  findToken,
  type Network,
  parseAddress,
  resolveToken,
  type Token,
} from '../../shared/tokens.js';
import type { CallOptions } from './call.js';
import type { ChainReader } from './chain/account.js';
import type { Endpoints } from './endpoints.js';
import { sessionReader } from './execution.js';
import { networkAllows } from './actions/rules.js';
import { mapChainError } from './chain/errors.js';
import { inScope } from './chain/scope.js';
import { batchedViews, type Viewer } from './chain/views.js';
import type { ActionKind } from './actions/kinds.js';
import type { PoolMember, StakingValidator } from './actions/legs/staking-common.js';

export type { PoolMember, StakingValidator } from './actions/legs/staking-common.js';

interface StakingReadOptions {
  signal?: AbortSignal | undefined;
  sandbox?: boolean | undefined;
  /** the round the views join (chain/views.ts); a fresh one when not given */
  views?: Viewer | undefined;
}

const viewsOf = (reader: ChainReader, options: StakingReadOptions): Viewer =>
  options.views ?? batchedViews(reader);

const view = (
  views: Viewer,
  contractAddress: string,
  entrypoint: string,
  calldata: string[] = [],
): Promise<bigint[]> => views({ contractAddress, entrypoint, calldata });

const hex = (value: bigint | undefined): string => feltHex(value ?? 0n);

const garbled = (what: string): AppError =>
  new AppError(
    ErrorCode.CHAIN_ERROR,
    `the staking contract answered ${what} in a shape we do not know`,
  );

/** get_pool_member_info_v1 → Option<PoolMemberInfoV1> (Some = 0 then the fields; None = 1). */
function decodeMember(felts: readonly bigint[]): PoolMember | undefined {
  if (felts[0] === 1n && felts.length === 1) return undefined;
  if (felts[0] !== 0n || felts.length < 7) throw garbled('get_pool_member_info_v1');
  const [, reward, amount, unclaimed, commission, unpoolAmount, option, time] = felts as bigint[];
  if (option !== 0n && option !== 1n) throw garbled('get_pool_member_info_v1');
  return {
    rewardAddress: hex(reward),
    amount: amount as bigint,
    unclaimedRewards: unclaimed as bigint,
    commissionBps: Number(commission),
    unpoolAmount: unpoolAmount as bigint,
    unpoolTime: option === 0n && time !== undefined ? Number(time) : undefined,
  };
}

/** The account's membership of `validator`'s pool; undefined when it is not a member. */
export async function readPoolMember(
  reader: ChainReader,
  validator: Pick<StakingValidator, 'pool'>,
  options: StakingReadOptions = {},
): Promise<PoolMember | undefined> {
  return inScope(
    options.signal,
    async () =>
      decodeMember(
        await view(viewsOf(reader, options), validator.pool, 'get_pool_member_info_v1', [
          reader.address,
        ]),
      ),
    mapChainError,
  );
}

/**
 * The staking contract's exit window in seconds: `contract_parameters_v1()` →
 * StakingContractInfoV1 {min_stake, token_address, attestation_contract,
 * pool_contract_class_hash, reward_supplier, exit_wait_window: TimeDelta {seconds}} (starknet-staking
 * src/staking/interface.cairo at 7a7add26). How long an exit intent waits before its withdrawal.
 */
export async function readExitWindow(
  reader: ChainReader,
  options: StakingReadOptions = {},
): Promise<number> {
  return inScope(
    options.signal,
    async () => {
      const felts = await view(
        viewsOf(reader, options),
        stakingContractFor(reader.network),
        'contract_parameters_v1',
      );
      const window = felts[5];
      if (felts.length !== 6 || window === undefined || window > BigInt(Number.MAX_SAFE_INTEGER))
        throw garbled('contract_parameters_v1');
      return Number(window);
    },
    mapChainError,
  );
}

/** The chain's time (the latest block's timestamp, seconds): what an exit window is measured on. */
export async function readChainTime(
  reader: ChainReader,
  options: StakingReadOptions = {},
): Promise<number> {
  return inScope(
    options.signal,
    async () => Number((await reader.provider.getBlock('latest')).timestamp),
    mapChainError,
  );
}

/**
 * A validator by preset name (case-insensitive), staker address or pool address, read from the
 * staking contract: its STRK pool, commission and whether it takes new stakes (an announced
 * exit, or a pool whose staker was removed, does not). UNKNOWN_VALIDATOR when it is none.
 */
export async function readValidator(
  reader: ChainReader,
  nameOrAddress: string,
  options: StakingReadOptions = {},
): Promise<StakingValidator> {
  const network = reader.network;
  const strk = resolveToken(network, 'STRK');
  const presets = validatorsFor(network, { sandbox: options.sandbox === true });
  const preset = findValidator(presets, nameOrAddress);
  const key = nameOrAddress.trim();
  if (preset === undefined && !FELT_HEX.test(key))
    throw new AppError(
      ErrorCode.UNKNOWN_VALIDATOR,
      `no validator named "${key.slice(0, 60)}" ${options.sandbox === true ? 'in the sandbox' : `on ${network}`}${presets.length === 0 ? ' (no presets: give the staker address)' : ` (known: ${presets.map((v) => v.name).join(', ')}; or give a staker address)`}`,
    );
  const staker = preset?.staker ?? parseAddress(key, 'validator');
  const staking = stakingContractFor(network);
  const views = viewsOf(reader, options);
  return inScope(
    options.signal,
    async () => {
      const [poolInfo, stakerInfo] = await Promise.all([
        view(views, staking, 'staker_pool_info', [staker]).catch(() => undefined),
        view(views, staking, 'get_staker_info_v1', [staker]).catch(() => undefined),
      ]);
      if (poolInfo === undefined || stakerInfo === undefined || stakerInfo[0] === 1n) {
        // the staking contract forgets a removed staker (STAKER_NOT_EXISTS / None): the preset's
        // pool still says so itself (docs/contracts.md "A removed staker")
        const removed =
          preset === undefined
            ? undefined
            : await readRemovedPool(
                views,
                preset,
                staking,
                findToken(network, strk.address) ?? strk,
              );
        if (removed !== undefined) return removed;
        throw new AppError(
          ErrorCode.UNKNOWN_VALIDATOR,
          `${preset?.name ?? staker} is not a validator of the ${options.sandbox === true ? "sandbox's" : network} staking contract`,
        );
      }
      // StakerPoolInfoV2: commission Option, then pools (len, then pool_contract, token_address, amount each)
      const withCommission = poolInfo[0] === 0n;
      const commission = withCommission ? Number(poolInfo[1]) : 0;
      const at = withCommission ? 2 : 1;
      const count = Number(poolInfo[at] ?? 0n);
      const pools = Array.from({ length: count }, (_, i) => ({
        pool: hex(poolInfo[at + 1 + i * 3]),
        token: hex(poolInfo[at + 2 + i * 3]),
        amount: poolInfo[at + 3 + i * 3] ?? 0n,
      }));
      const strkPool = pools.find((p) => BigInt(p.token) === BigInt(strk.address));
      if (strkPool === undefined)
        throw new AppError(
          ErrorCode.UNKNOWN_VALIDATOR,
          `${preset?.name ?? staker} has no STRK delegation pool`,
        );
      if (preset !== undefined && BigInt(preset.pool) !== BigInt(strkPool.pool))
        throw new AppError(
          ErrorCode.CHAIN_ERROR,
          `the staking contract names ${strkPool.pool} as ${preset.name}'s pool, not the preset ${preset.pool}: refusing`,
        );
      // StakerInfoV1 after the Option's 0: reward_address, operational_address, unstake_time Option…
      const leaving = stakerInfo[3] === 0n ? Number(stakerInfo[4]) : undefined;
      // … then amount_own (the staker's own stake)
      const own = stakerInfo[leaving === undefined ? 4 : 5] ?? 0n;
      const token = findToken(network, strk.address) ?? strk;
      return {
        name: preset?.name ?? `staker ${staker.slice(0, 8)}…${staker.slice(-4)}`,
        staker,
        pool: strkPool.pool,
        token,
        commissionBps: commission,
        stake: own + strkPool.amount,
        active: leaving === undefined,
        ...(leaving === undefined
          ? {}
          : {
              inactiveReason: `it has announced its exit from staking (it leaves at ${new Date(leaving * 1000).toISOString()})`,
            }),
      };
    },
    mapChainError,
  );
}

/** The words every face may use for why a removed staker's pool takes no stake. */
export const STAKER_REMOVED_REASON =
  'its staker was removed from staking: its pool takes no stake and pays no more rewards';

/**
 * A preset's pool whose staker the staking contract removed, from the pool's own
 * contract_parameters_v1 (PoolContractInfoV1: staker_address, staker_removed, staking_contract,
 * token_address, commission): undefined unless it says removed, for this staker, this staking
 * contract and STRK.
 */
async function readRemovedPool(
  views: Viewer,
  preset: Validator,
  staking: string,
  token: Token,
): Promise<StakingValidator | undefined> {
  const params = await view(views, preset.pool, 'contract_parameters_v1').catch(() => undefined);
  if (params === undefined || params.length !== 5) return undefined;
  const [stakerAddress, removed, stakingContract, tokenAddress] = params as bigint[];
  if (
    removed !== 1n ||
    stakerAddress !== BigInt(preset.staker) ||
    stakingContract !== BigInt(staking) ||
    tokenAddress !== BigInt(preset.token) ||
    tokenAddress !== BigInt(token.address)
  )
    return undefined;
  return {
    name: preset.name,
    staker: preset.staker,
    pool: preset.pool,
    token,
    // the pool says 0 once its staker is removed (no more rewards to take a share of)
    commissionBps: 0,
    // the staking contract no longer counts it: nothing of it is in the total stake
    stake: 0n,
    active: false,
    inactiveReason: STAKER_REMOVED_REASON,
    stakerRemoved: true,
  };
}

/**
 * What a member of a pool can still do once its staker was removed (the pool's code,
 * docs/contracts.md "A removed staker"): start an exit — withdrawable at once — when none runs
 * (`unstake`), withdraw one that runs at its time (`unstake-complete`), claim the rewards earned
 * before the removal (`claim-rewards`). Action kinds (actions/kinds.ts): each face words them.
 */
type RemovedPoolAction = Extract<ActionKind, 'unstake' | 'unstake-complete' | 'claim-rewards'>;

export function removedPoolActions(member: PoolMember): RemovedPoolAction[] {
  const actions: RemovedPoolAction[] = [];
  if (member.amount > 0n && member.unpoolTime === undefined) actions.push('unstake');
  if (member.unpoolAmount > 0n && member.unpoolTime !== undefined) actions.push('unstake-complete');
  if (member.unclaimedRewards > 0n) actions.push('claim-rewards');
  return actions;
}

const amountOf = (value: bigint, decimals: number) => ({
  amount: formatAmount(value, decimals),
  baseUnits: value.toString(),
});

/** `part` of `total` in percent with two decimals, cut toward zero; null when the total is 0. */
function shareOf(part: bigint, total: bigint): string | null {
  if (total <= 0n) return null;
  return formatAmount((part * 10_000n) / total, 2);
}

/** The `staking` command's document: the validators known for the network and the account's positions. */
export interface StakingDocument {
  network: Network | 'sandbox';
  account: string;
  validators: Array<{
    name: string;
    staker: string;
    pool: string;
    token: string;
    commissionBps: number;
    active: boolean;
    inactiveReason?: string;
    /** the staking contract removed its staker: read from its pool (docs/contracts.md "A removed staker") */
    stakerRemoved: boolean;
    /** its own stake plus its STRK pool's */
    stake: { amount: string; baseUnits: string };
    /**
     * its share of the contract's total STRK stake (get_total_stake), in percent with two
     * decimals, cut (never rounded up); null when the total is 0
     */
    shareOfTotalStake: string | null;
  }>;
  /** the staking contract's total STRK stake (get_total_stake) */
  totalStake: { amount: string; baseUnits: string };
  positions: Array<{
    validator: string;
    staker: string;
    pool: string;
    token: string;
    staked: { amount: string; baseUnits: string };
    unclaimedRewards: { amount: string; baseUnits: string };
    exiting: { amount: string; baseUnits: string };
    withdrawableAt: string | null;
    rewardAddress: string;
    /** the validator's staker was removed: the pool takes no stake and pays no more rewards */
    stakerRemoved: boolean;
    /** with a removed staker, what the member can still do (each face words it); null otherwise */
    memberCan: RemovedPoolAction[] | null;
  }>;
}

/**
 * Every known validator of the network and the account's membership of each, in ONE parallel
 * round: the membership is asked of the preset's pool beside the validator's own reads, and
 * counts only once the staking contract has named that same pool (readValidator refuses a preset
 * whose pool the contract does not name), so a stale preset can never show a stake.
 */
export async function stakingOf(
  reader: ChainReader,
  options: StakingReadOptions = {},
): Promise<StakingDocument> {
  const presets = validatorsFor(reader.network, { sandbox: options.sandbox === true });
  const shared = { ...options, views: viewsOf(reader, options) };
  const strk = resolveToken(reader.network, 'STRK');
  const totalRead = inScope(
    options.signal,
    async () => {
      const [total] = await view(
        shared.views,
        stakingContractFor(reader.network),
        'get_total_stake',
      );
      if (total === undefined) throw garbled('get_total_stake');
      return total;
    },
    mapChainError,
  );
  totalRead.catch(() => undefined); // awaited below, beside the validators
  const read = await Promise.all(
    presets.map(async (p) => {
      const member = readPoolMember(reader, p, shared);
      member.catch(() => undefined); // awaited below, after the validator is confirmed
      const validator = await readValidator(reader, p.name, shared);
      return { validator, member: await member };
    }),
  );
  const total = await totalRead;
  return {
    network: options.sandbox === true ? 'sandbox' : reader.network,
    account: reader.address,
    totalStake: amountOf(total, strk.decimals),
    validators: read.map(({ validator: v }) => ({
      name: v.name,
      staker: v.staker,
      pool: v.pool,
      token: v.token.symbol,
      commissionBps: v.commissionBps,
      active: v.active,
      ...(v.inactiveReason === undefined ? {} : { inactiveReason: v.inactiveReason }),
      stakerRemoved: v.stakerRemoved === true,
      stake: amountOf(v.stake ?? 0n, v.token.decimals),
      shareOfTotalStake: shareOf(v.stake ?? 0n, total),
    })),
    positions: read.flatMap(({ validator: v, member: m }) =>
      m === undefined || (m.amount === 0n && m.unpoolAmount === 0n && m.unclaimedRewards === 0n)
        ? []
        : [
            {
              validator: v.name,
              staker: v.staker,
              pool: v.pool,
              token: v.token.symbol,
              staked: amountOf(m.amount, v.token.decimals),
              unclaimedRewards: amountOf(m.unclaimedRewards, v.token.decimals),
              exiting: amountOf(m.unpoolAmount, v.token.decimals),
              withdrawableAt:
                m.unpoolAmount === 0n || m.unpoolTime === undefined
                  ? null
                  : new Date(m.unpoolTime * 1000).toISOString(),
              rewardAddress: m.rewardAddress,
              stakerRemoved: v.stakerRemoved === true,
              memberCan: v.stakerRemoved === true ? removedPoolActions(m) : null,
            },
          ],
    ),
  };
}

/** The session wallet's staking: the known validators of the network and its positions (`staking`). */
export async function stakingPositions(
  endpoints: Endpoints,
  options: { now?: () => number } = {},
  call: CallOptions = {},
): Promise<StakingDocument & { email: string }> {
  networkAllows('staking', endpoints.network);
  const { session, reader } = await sessionReader(endpoints, options);
  const doc = await stakingOf(reader, { signal: call.signal, sandbox: endpoints.sandbox });
  return { email: session.email, ...doc };
}
