/**
 * The sandbox chain held against the official interfaces (shared/abi/, docs/contracts.md
 * "Official interfaces"), over HTTP like any client:
 * - every view the client's entrypoint tables name, answered by the sandbox, decodes with the
 *   real ABI and re-encodes to the same felts;
 * - every event it emits in real flows (stake, add, exit intent and action, claim, reward address,
 *   supply, withdraw, borrow, transfers, a staker's removal) carries the real event's keys and data;
 * - once a staker is removed, its pool's and the staking contract's views still decode with the
 *   real ABI (docs/contracts.md "A removed staker");
 * - the ABI it serves from `starknet_getClassAt` gives what it serves the real names and types.
 * The Vesu cases fail until the sandbox serves Vesu v2 (branches w/vesu-client, w/vesu-sandbox).
 */
import type { FastifyInstance } from 'fastify';
import { CairoCustomEnum, CallData, type Abi } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERC20_ENTRYPOINT, selectorOf } from '../shared/erc20.js';
import {
  findValidator,
  POOL_ENTRYPOINT,
  STAKING_CONTRACT,
  STAKING_ENTRYPOINT,
  validatorsFor,
} from '../shared/staking.js';
import { resolveToken } from '../shared/tokens.js';
import * as vesu from '../shared/vesu.js';
import {
  PRAGMA_ENTRYPOINT,
  PRAGMA_ORACLE,
  PRAGMA_OTHER_ENTRYPOINT,
  pairIdFelt,
} from '../shared/pragma.js';
import { DEFAULT_POOLS, resolvePools } from '../sandbox/aggregator/pools.js';
import { buildChainEmulator } from '../sandbox/chain/app.js';
import {
  canonical,
  deploymentOf,
  hex,
  newWallet,
  payIn,
  signTyped,
  type Wallet,
} from './helpers/chain-wallet.js';
import {
  encodeWith,
  eventsOf,
  functionsOf,
  officialAbi,
  roundTripOutputs,
  type OfficialContract,
} from './helpers/official-abi.js';

const STRK = resolveToken('mainnet', 'STRK');
const ETH = resolveToken('mainnet', 'ETH');
const USDC = resolveToken('mainnet', 'USDC');
const VALIDATORS = validatorsFor('mainnet', { sandbox: true });
const ALPHA = findValidator(VALIDATORS, 'Sandbox Alpha')!;
const BETA = findValidator(VALIDATORS, 'Sandbox Beta')!;
const DEPLOYMENT = vesu.vesuFor('mainnet')!;
const VESU_POOL = DEPLOYMENT.pools[0]!.address;
const E18 = 10n ** 18n;

/**
 * Where the sandbox answers differently from the official source on purpose, with the reason
 * (docs/decisions.md "Official interfaces: the registry tokens' name and symbol").
 */
const KNOWN_DEVIATIONS: Partial<Record<OfficialContract, readonly string[]>> = {
  // StarkGate-style felt252 short strings, where OpenZeppelin v2.0.0 answers ByteArray
  erc20: ['name', 'symbol'],
};

let app: FastifyInstance;
let url: string;
let alice: Wallet;
let vUsdc: string;
let oracle: string;
/** every event the flows emitted: its emitter, keys and data */
const emitted: { from: bigint; keys: bigint[]; data: bigint[] }[] = [];

let nextId = 0;
async function rpc(method: string, params: Record<string, unknown>, path = '/rpc') {
  nextId += 1;
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId, method, params }),
  });
  return (await response.json()) as {
    result?: unknown;
    error?: { message: string; data?: unknown };
  };
}

async function knob(path: string, body: unknown): Promise<void> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function view(to: string, entrypoint: string, calldata: bigint[]) {
  return rpc('starknet_call', {
    request: {
      contract_address: canonical(to),
      entry_point_selector: hex(selectorOf(entrypoint)),
      calldata: calldata.map(hex),
    },
    block_id: 'latest',
  });
}

const call = (to: string, entrypoint: string, calldata: bigint[]) => ({
  to: canonical(to),
  selector: hex(selectorOf(entrypoint)),
  calldata: calldata.map(hex),
});
const u256 = (v: bigint) => [v % (1n << 128n), v >> 128n];
const addr = (a: string) => BigInt(a);

/** Builds, signs and executes through the paymaster; keeps the receipt's events. */
async function transact(wallet: Wallet, calls: unknown[]): Promise<void> {
  const built = await rpc(
    'paymaster_buildTransaction',
    {
      transaction: { type: 'invoke', invoke: { user_address: canonical(wallet.address), calls } },
      parameters: payIn(STRK.address),
    },
    '/paymaster',
  );
  expect(built.error).toBeUndefined();
  const result = built.result as { typed_data: unknown; parameters: unknown; type: string };
  const executed = await rpc(
    'paymaster_executeTransaction',
    {
      transaction: {
        type: result.type,
        invoke: {
          user_address: canonical(wallet.address),
          typed_data: result.typed_data,
          signature: signTyped(wallet, result.typed_data),
        },
      },
      parameters: result.parameters,
    },
    '/paymaster',
  );
  expect(executed.error).toBeUndefined();
  const hash = (executed.result as { transaction_hash: string }).transaction_hash;
  await knob('/sandbox/chain/confirm-delay', { ms: 0, release: true });
  const receipt = await rpc('starknet_getTransactionReceipt', { transaction_hash: hash });
  const r = receipt.result as {
    execution_status: string;
    revert_reason?: string;
    events: { from_address: string; keys: string[]; data: string[] }[];
  };
  expect(r.execution_status, r.revert_reason).toBe('SUCCEEDED');
  for (const e of r.events)
    emitted.push({
      from: BigInt(e.from_address),
      keys: e.keys.map(BigInt),
      data: e.data.map(BigInt),
    });
}

beforeAll(async () => {
  let now = 1_800_000_000_000;
  app = await buildChainEmulator({ pools: resolvePools(DEFAULT_POOLS), now: () => now });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  alice = newWallet();
  await knob('/sandbox/chain/fund', { address: alice.address });
  // the account deploys with its first transaction: a plain transfer of STRK to itself
  const deploy = await rpc(
    'paymaster_executeTransaction',
    {
      transaction: {
        type: 'deploy',
        deployment: deploymentOf(alice),
      },
      parameters: payIn(STRK.address),
    },
    '/paymaster',
  );
  expect(deploy.error).toBeUndefined();
  const vToken = await view(DEPLOYMENT.poolFactory, 'v_token_for_asset', [
    addr(VESU_POOL),
    addr(USDC.address),
  ]);
  vUsdc = hex(BigInt((vToken.result as string[])[0]!));
  const o = await view(VESU_POOL, 'oracle', []);
  oracle = hex(BigInt((o.result as string[])[0]!));
  const me = addr(alice.address);
  const stake = 10n * E18;
  await transact(alice, [
    call(STRK.address, 'approve', [addr(ALPHA.pool), ...u256(stake)]),
    call(ALPHA.pool, 'enter_delegation_pool', [me, stake]),
  ]);
  await knob('/sandbox/chain/advance', { seconds: 86_400 * 3 });
  now += 86_400 * 3 * 1000;
  await transact(alice, [
    call(STRK.address, 'approve', [addr(ALPHA.pool), ...u256(E18)]),
    call(ALPHA.pool, 'add_to_delegation_pool', [me, E18]),
    call(ALPHA.pool, 'claim_rewards', [me]),
    call(ALPHA.pool, 'change_reward_address', [me]),
    call(ALPHA.pool, 'exit_delegation_pool_intent', [2n * E18]),
  ]);
  await transact(alice, [
    call(ALPHA.pool, 'switch_delegation_pool', [addr(BETA.staker), addr(BETA.pool), E18]),
  ]);
  await knob('/sandbox/chain/advance', { seconds: 86_400 * 30 });
  now += 86_400 * 30 * 1000;
  await transact(alice, [call(ALPHA.pool, 'exit_delegation_pool_action', [me])]);
  const supplied = 100n * 10n ** 6n;
  await transact(alice, [
    call(USDC.address, 'approve', [addr(vUsdc), ...u256(supplied)]),
    call(vUsdc, 'deposit', [...u256(supplied), me]),
    call(vUsdc, 'withdraw', [...u256(10n ** 6n), me, me]),
    call(vUsdc, 'redeem', [...u256(10n ** 6n), me, me]),
  ]);
  await transact(alice, [
    call(ETH.address, 'approve', [addr(VESU_POOL), ...u256(E18)]),
    call(VESU_POOL, 'modify_position', [
      addr(ETH.address),
      addr(USDC.address),
      me,
      ...[1n, ...u256(E18), 0n],
      ...[1n, ...u256(100n * 10n ** 6n), 0n],
    ]),
    call(STRK.address, 'transfer', [addr(BETA.pool) + 1n, ...u256(1n)]),
    call(USDC.address, 'transfer', [addr(BETA.pool) + 1n, ...u256(1n)]),
  ]);
  // Beta's staker removed (alice is a member there, by the switch): DeleteStaker, StakerRemoved
  const removed = await fetch(`${url}/sandbox/chain/remove-staker`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ staker: BETA.staker }),
  });
  expect(removed.status).toBe(200);
  const { events } = (await removed.json()) as {
    events: { from: string; keys: string[]; data: string[] }[];
  };
  for (const e of events)
    emitted.push({ from: BigInt(e.from), keys: e.keys.map(BigInt), data: e.data.map(BigInt) });
});

afterAll(async () => {
  await app?.close();
});

/** Which official ABI judges the contract at `address` (undefined: none we know). */
function contractAt(address: bigint): OfficialContract | undefined {
  if (address === addr(STAKING_CONTRACT.mainnet)) return 'staking';
  if (VALIDATORS.some((v) => addr(v.pool) === address)) return 'staking-pool';
  if (address === addr(VESU_POOL)) return 'vesu-pool';
  if (address === addr(DEPLOYMENT.poolFactory)) return 'vesu-pool-factory';
  if (address === addr(vUsdc)) return 'vesu-v-token';
  if (address === addr(oracle)) return 'vesu-oracle';
  if (address === addr(PRAGMA_ORACLE.mainnet)) return 'pragma-oracle';
  if ([STRK, ETH, USDC].some((t) => addr(t.address) === address)) return 'erc20';
  return undefined;
}

/** A value for an argument, by its name in the official ABI. */
function argFor(name: string, type: string): unknown {
  const me = alice.address;
  const byName: Record<string, unknown> = {
    collateral_asset: ETH.address,
    debt_asset: USDC.address,
    asset: USDC.address,
    user: me,
    pool_member: me,
    account: me,
    owner: me,
    receiver: me,
    spender: VESU_POOL,
    staker_address: ALPHA.staker,
    token_address: STRK.address,
    pool: VESU_POOL,
    v_token: vUsdc,
    assets: 10n ** 6n,
    shares: 10n ** 6n,
    // the pool's rate and amount views (Vesu v2): a plausible state, 1e18 scale
    utilization: 5n * 10n ** 17n,
    last_updated: 1n,
    last_full_utilization_rate: 10n ** 10n,
    nominal_debt: { abs: 10n ** 18n, is_negative: false },
    collateral_shares: { abs: 10n ** 18n, is_negative: false },
    rate_accumulator: 10n ** 18n,
    asset_scale: 10n ** 6n,
    // Pragma's views: DataType::SpotEntry('ETH/USD'), AggregationMode::Median
    data_type: new CairoCustomEnum({ SpotEntry: pairIdFelt('ETH/USD') }),
    aggregation_mode: new CairoCustomEnum({ Median: {} }),
  };
  if (name in byName) return byName[name];
  throw new Error(`no test value for ${name}: ${type}`);
}

interface ViewCase {
  contract: OfficialContract;
  to: () => string;
  entrypoint: string;
}

const vesuTable = (name: string) =>
  ((vesu as Record<string, unknown>)[name] ?? {}) as Record<string, string>;

/** The views the client's tables name, on the contract that serves them. */
const VIEW_CASES: ViewCase[] = [
  ...Object.values(STAKING_ENTRYPOINT).map((entrypoint) => ({
    contract: 'staking' as const,
    to: () => STAKING_CONTRACT.mainnet,
    entrypoint,
  })),
  ...Object.values(POOL_ENTRYPOINT).map((entrypoint) => ({
    contract: 'staking-pool' as const,
    to: () => ALPHA.pool,
    entrypoint,
  })),
  ...[STRK, USDC].flatMap((token) =>
    Object.values(ERC20_ENTRYPOINT).map((entrypoint) => ({
      contract: 'erc20' as const,
      to: () => token.address,
      entrypoint,
    })),
  ),
  ...Object.values(vesuTable('VESU_POOL_ENTRYPOINT')).map((entrypoint) => ({
    contract: 'vesu-pool' as const,
    to: () => VESU_POOL,
    entrypoint,
  })),
  ...Object.values(vesuTable('VESU_FACTORY_ENTRYPOINT')).map((entrypoint) => ({
    contract: 'vesu-pool-factory' as const,
    to: () => DEPLOYMENT.poolFactory,
    entrypoint,
  })),
  ...Object.values(vesuTable('VTOKEN_ENTRYPOINT')).map((entrypoint) => ({
    contract: 'vesu-v-token' as const,
    to: () => vUsdc,
    entrypoint,
  })),
  ...Object.values(vesuTable('VESU_ORACLE_ENTRYPOINT')).map((entrypoint) => ({
    contract: 'vesu-oracle' as const,
    to: () => oracle,
    entrypoint,
  })),
  ...[...Object.values(PRAGMA_ENTRYPOINT), ...Object.values(PRAGMA_OTHER_ENTRYPOINT)].map(
    (entrypoint) => ({
      contract: 'pragma-oracle' as const,
      to: () => PRAGMA_ORACLE.mainnet,
      entrypoint,
    }),
  ),
].filter(
  (c) =>
    officialAbi(c.contract).functions.get(c.entrypoint)?.mutability !== 'external' &&
    !(KNOWN_DEVIATIONS[c.contract] ?? []).includes(c.entrypoint),
);

describe('every view the client names: the sandbox answer decodes with the real ABI and re-encodes to the same felts', () => {
  it.each(VIEW_CASES.map((c) => [`${c.contract}.${c.entrypoint}`, c] as const))(
    '%s',
    async (_, c) => {
      const official = officialAbi(c.contract);
      const fn = official.functions.get(c.entrypoint);
      expect(fn, `${c.entrypoint} is not a function of the official ${c.contract}`).toBeDefined();
      const args = fn!.inputNames.map((name, i) => argFor(name, fn!.inputs[i]!));
      const calldata = new CallData(official.abi).compile(c.entrypoint, args as never).map(BigInt);
      const answer = await view(c.to(), c.entrypoint, calldata);
      expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
      const felts = (answer.result as string[]).map(BigInt);
      expect(roundTripOutputs(official, c.entrypoint, felts)).toEqual(felts);
    },
  );
});

describe('every event the sandbox emits in real flows has the real event’s keys and data', () => {
  it('the flows emitted events of each contract the client reads', () => {
    const seen = new Set(emitted.map((e) => contractAt(e.from)));
    for (const contract of [
      'staking',
      'staking-pool',
      'erc20',
      'vesu-pool',
      'vesu-v-token',
    ] as const)
      expect(seen, contract).toContain(contract);
    // the removal's: the staking contract's DeleteStaker and the pool's StakerRemoved
    for (const name of ['DeleteStaker', 'StakerRemoved'])
      expect(
        emitted.some((e) => e.keys[0] === selectorOf(name)),
        name,
      ).toBe(true);
  });

  it('each one: keys[0] names a real event; its keys and data decode with the real types and re-encode to the same felts', () => {
    const problems: string[] = [];
    for (const e of emitted) {
      const contract = contractAt(e.from);
      if (contract === undefined) continue;
      const official = officialAbi(contract);
      const name = [...official.events.keys()].find((n) => selectorOf(n) === e.keys[0]);
      const where = `${contract} event ${name ?? hex(e.keys[0] ?? 0n)}`;
      if (name === undefined) {
        problems.push(`${where}: not an event of the official ABI`);
        continue;
      }
      const sig = official.events.get(name)!;
      // StarkGate's legacy Transfer/Approval: no #[key] members, the same types as data
      const legacy = contract === 'erc20' && e.keys.length === 1;
      const keyTypes = legacy ? [] : sig.keys;
      const dataTypes = legacy ? [...sig.keys, ...sig.data] : sig.data;
      for (const [part, types, felts] of [
        ['keys', keyTypes, e.keys.slice(1)],
        ['data', dataTypes, e.data],
      ] as const) {
        try {
          const again = roundTripTypes(official, types, felts);
          if (again.join() !== felts.join())
            problems.push(`${where}: ${part} [${felts.map(hex)}] are not ${types.join(', ')}`);
        } catch (error) {
          problems.push(`${where}: ${part} do not decode as ${types.join(', ')}: ${String(error)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('a removed staker: the views the client falls back on decode with the real ABI', () => {
  const removedCases: Array<[OfficialContract, () => string, string, () => bigint[]]> = [
    ['staking-pool', () => BETA.pool, 'contract_parameters_v1', () => []],
    ['staking-pool', () => BETA.pool, 'get_pool_member_info_v1', () => [addr(alice.address)]],
    ['staking-pool', () => BETA.pool, 'pool_member_info_v1', () => [addr(alice.address)]],
    ['staking', () => STAKING_CONTRACT.mainnet, 'get_staker_info_v1', () => [addr(BETA.staker)]],
    ['staking', () => STAKING_CONTRACT.mainnet, 'get_total_stake', () => []],
  ];
  it.each(removedCases.map((c) => [`${c[0]}.${c[2]}`, c] as const))('%s', async (_, c) => {
    const [contract, to, entrypoint, calldata] = c;
    const answer = await view(to(), entrypoint, calldata());
    expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
    const felts = (answer.result as string[]).map(BigInt);
    expect(roundTripOutputs(officialAbi(contract), entrypoint, felts)).toEqual(felts);
  });

  it('the pool says staker_removed and commission 0; the staking contract no longer knows the staker', async () => {
    const params = await view(BETA.pool, 'contract_parameters_v1', []);
    const decoded = new CallData(officialAbi('staking-pool').abi).parse(
      'contract_parameters_v1',
      params.result as string[],
    ) as { staker_removed: boolean; commission: bigint };
    expect(decoded).toMatchObject({ staker_removed: true, commission: 0n });
    expect(
      (await view(STAKING_CONTRACT.mainnet, 'get_staker_info_v1', [addr(BETA.staker)])).result,
    ).toEqual(['0x1']);
    const gone = await view(STAKING_CONTRACT.mainnet, 'staker_pool_info', [addr(BETA.staker)]);
    expect(JSON.stringify(gone.error)).toContain('STAKER_NOT_EXISTS');
  });
});

/** `felts` decoded as `types` with the official ABI, then re-encoded. */
function roundTripTypes(
  official: ReturnType<typeof officialAbi>,
  types: readonly string[],
  felts: readonly bigint[],
): bigint[] {
  if (types.length === 0) return [];
  const name = '__conformance_decode__';
  const tuple = `(${types.join(', ')})`;
  const abi = [
    ...(official.abi as unknown as object[]),
    { type: 'function', name, inputs: [], outputs: [{ type: tuple }], state_mutability: 'view' },
  ] as unknown as Abi;
  const decoded = new CallData(abi).parse(name, felts.map(hex)) as Record<number, unknown>;
  return encodeWith(
    official,
    types,
    types.map((_, i) => decoded[i]),
  );
}

describe('the ABI the sandbox serves from starknet_getClassAt names what it serves with the real types', () => {
  const contracts: [OfficialContract, () => string][] = [
    ['staking', () => STAKING_CONTRACT.mainnet],
    ['staking-pool', () => ALPHA.pool],
    ['erc20', () => STRK.address],
    ['erc20', () => USDC.address],
    ['vesu-pool', () => VESU_POOL],
    ['vesu-pool-factory', () => DEPLOYMENT.poolFactory],
    ['vesu-v-token', () => vUsdc],
    ['vesu-oracle', () => oracle],
    ['pragma-oracle', () => PRAGMA_ORACLE.mainnet],
  ];
  it.each(contracts.map(([c, to], i) => [`${c} #${i}`, c, to] as const))(
    '%s',
    async (_, contract, to) => {
      const got = await rpc('starknet_getClassAt', {
        block_id: 'latest',
        contract_address: canonical(to()),
      });
      expect(got.error).toBeUndefined();
      const served = JSON.parse((got.result as { abi: string }).abi) as never[];
      const official = officialAbi(contract);
      const skip = KNOWN_DEVIATIONS[contract] ?? [];
      const problems: string[] = [];
      for (const [name, fn] of functionsOf(served)) {
        // the sandbox's own plumbing between its contracts (docs/sandbox-chain.md)
        if (name.startsWith('sandbox_') || skip.includes(name)) continue;
        const real = official.functions.get(name);
        if (real === undefined) problems.push(`${name}: not in the official ABI`);
        else if (
          real.inputs.join() !== fn.inputs.join() ||
          real.outputs.join() !== fn.outputs.join() ||
          real.mutability !== fn.mutability
        )
          problems.push(
            `${name}: serves (${fn.inputs.join(', ')}) -> (${fn.outputs.join(', ')}) ${fn.mutability}, the real one (${real.inputs.join(', ')}) -> (${real.outputs.join(', ')}) ${real.mutability}`,
          );
      }
      for (const [name, ev] of eventsOf(served)) {
        const real = official.events.get(name);
        // StarkGate's legacy layout (no #[key] members): the same types, all as data
        const legacy = contract === 'erc20' && ev.keys.length === 0;
        const keys = legacy ? [] : real?.keys;
        const data = legacy ? [...(real?.keys ?? []), ...(real?.data ?? [])] : real?.data;
        if (real === undefined) problems.push(`event ${name}: not in the official ABI`);
        else if (keys?.join() !== ev.keys.join() || data?.join() !== ev.data.join())
          problems.push(`event ${name}: keys/data differ from the real ones`);
      }
      // a struct both name must have the same members
      const realStructs = new Map(
        (official.abi as unknown as { type: string; name: string; members?: unknown }[])
          .filter((e) => e.type === 'struct')
          .map((e) => [e.name, JSON.stringify(e.members)]),
      );
      for (const e of served as { type: string; name: string; members?: unknown }[]) {
        if (e.type !== 'struct' || !realStructs.has(e.name)) continue;
        if (realStructs.get(e.name) !== JSON.stringify(e.members))
          problems.push(`struct ${e.name}: members differ from the real ones`);
      }
      expect(problems).toEqual([]);
    },
  );
});

describe("Pragma's oracle: the median decodes with the official ABI and follows the sandbox's price knob", () => {
  const median = async (pair: string) => {
    const official = officialAbi('pragma-oracle');
    const calldata = new CallData(official.abi)
      .compile('get_data_median', [new CairoCustomEnum({ SpotEntry: pairIdFelt(pair) })])
      .map(BigInt);
    const answer = await view(PRAGMA_ORACLE.mainnet, 'get_data_median', calldata);
    expect(answer.error, JSON.stringify(answer.error)).toBeUndefined();
    const felts = (answer.result as string[]).map(BigInt);
    expect(roundTripOutputs(official, 'get_data_median', felts)).toEqual(felts);
    return new CallData(official.abi).parse('get_data_median', felts as never) as {
      price: bigint;
      decimals: bigint;
      last_updated_timestamp: bigint;
      num_sources_aggregated: bigint;
    };
  };

  it('a price set for ETH alone is its median at 8 decimals, dated now; the market keeps its own', async () => {
    await knob('/sandbox/chain/price', { token: ETH.address, usd: '1234.5', only: 'pragma' });
    const eth = await median('ETH/USD');
    expect(eth.price).toBe(123_450_000_000n);
    expect(eth.decimals).toBe(8n);
    expect(eth.num_sources_aggregated).toBeGreaterThan(0n);
    const block = await rpc('starknet_getBlockWithTxHashes', { block_id: 'latest' });
    const timestamp = BigInt((block.result as { timestamp: number }).timestamp);
    expect(eth.last_updated_timestamp).toBeGreaterThanOrEqual(timestamp);
    // the lending oracle did not move with it
    const vesuPrice = await view(oracle, 'price', [addr(ETH.address)]);
    const value = BigInt((vesuPrice.result as string[])[0]!);
    expect(value).not.toBe(1234_500_000_000_000_000_000n);
  });

  it('a pair with no entries answers as the real oracle does: price 0, decimals 0, no sources', async () => {
    const none = await median('NOPE/USD');
    expect([none.price, none.decimals, none.num_sources_aggregated]).toEqual([0n, 0n, 0n]);
  });
});
