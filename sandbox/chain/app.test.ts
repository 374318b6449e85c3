/**
 * The chain + paymaster emulator on its own, over HTTP on 127.0.0.1: Starknet JSON-RPC reads,
 * SNIP-29 build/execute with every refusal code, the ledger's all-or-nothing rule, the knobs.
 * Transactions are signed here with a local key (the emulator only sees signatures).
 */
import { randomBytes } from 'node:crypto';
import { getStarkKey, utils } from '@scure/starknet';
import type { FastifyInstance } from 'fastify';
import { typedData } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELECTOR, selectorOf, u256Felts } from '../../shared/erc20.js';
import {
  ARGENT_X_V050_CLASS_HASH,
  argentAccountAddress,
  argentAccountAddressInMemory,
  deployedAddress as contractAddress,
  padHash,
  signStarkHash,
  splitSignature,
} from '../../shared/starknet.js';
import { resolveToken } from '../../shared/tokens.js';
import { DEFAULT_POOLS, resolvePools } from '../aggregator/pools.js';
import { buildChainEmulator } from './app.js';
import { CLASS_HASH, deployedAddress, FORWARDER_ADDRESS, RELAYER_ADDRESS } from './contracts.js';

const STRK = resolveToken('mainnet', 'STRK');
const ETH = resolveToken('mainnet', 'ETH');
const USDC = resolveToken('mainnet', 'USDC');
const API_KEY = 'sandbox-test-paymaster-key';

let app: FastifyInstance;
let url: string;
let clock = 1_800_000_000_000;

interface Wallet {
  privateKey: string;
  publicKey: string;
  address: string;
}

function newWallet(): Wallet {
  const privateKey = padHash(`0x${Buffer.from(utils.randomPrivateKey()).toString('hex')}`);
  const publicKey = padHash(getStarkKey(privateKey));
  return { privateKey, publicKey, address: argentAccountAddress(publicKey) };
}

interface OutsideCallJson {
  To: string;
  Selector: string;
  Calldata: string[];
}
interface BuiltJson {
  type: string;
  typed_data: {
    types: Record<string, Array<{ name: string; type: string }>>;
    primaryType: string;
    domain: Record<string, unknown>;
    message: {
      Caller: string;
      Nonce: string;
      'Execute After': string;
      'Execute Before': string;
      Calls: OutsideCallJson[];
    };
  };
  parameters: unknown;
  fee: Record<string, string>;
  deployment?: unknown;
}
interface ReceiptJson {
  transaction_hash: string;
  execution_status: string;
  finality_status: string;
  revert_reason?: string;
  actual_fee: { amount: string; unit: string };
  events: Array<{ from_address: string; keys: string[]; data: string[] }>;
}
/** Test-side view of a JSON-RPC reply: the result's shape is what each test expects. */
interface Reply {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the result as the method defines it
  result?: any;
  error?: { code: number; message: string; data?: unknown };
}

let id = 0;
async function rpc(
  path: '/rpc' | '/paymaster',
  method: string,
  params?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  id += 1;
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      ...(params === undefined ? {} : { params }),
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as never;
}

const hex = (value: bigint): string => `0x${value.toString(16)}`;

async function balance(token: string, owner: string): Promise<bigint> {
  const { result } = await rpc('/rpc', 'starknet_call', {
    request: {
      contract_address: token,
      entry_point_selector: hex(SELECTOR.balance_of),
      calldata: [owner],
    },
    block_id: 'latest',
  });
  return BigInt(result[0]) + (BigInt(result[1]) << 128n);
}

const transferCall = (token: string, to: string, amount: bigint) => ({
  to: token,
  selector: hex(SELECTOR.transfer),
  calldata: [to, ...u256Felts(amount)],
});

function deployment(wallet: Wallet) {
  return {
    address: wallet.address,
    class_hash: ARGENT_X_V050_CLASS_HASH,
    salt: wallet.publicKey,
    calldata: ['0x0', wallet.publicKey, '0x1'],
    version: 1,
  };
}

const sponsored = { version: '0x1', fee_mode: { mode: 'sponsored' } };
const payIn = (token: string) => ({
  version: '0x1',
  fee_mode: { mode: 'default', gas_token: token },
});

async function build(
  wallet: Wallet,
  calls: unknown[],
  parameters: unknown,
  deploy: boolean,
  headers: Record<string, string> = {},
) {
  const transaction = deploy
    ? {
        type: 'deploy_and_invoke',
        invoke: { user_address: wallet.address, calls },
        deployment: deployment(wallet),
      }
    : { type: 'invoke', invoke: { user_address: wallet.address, calls } };
  return rpc('/paymaster', 'paymaster_buildTransaction', { transaction, parameters }, headers);
}

function sign(wallet: Wallet, typed: unknown): string[] {
  const hash = typedData.getMessageHash(typed as never, wallet.address);
  return splitSignature(signStarkHash(hash, wallet.privateKey));
}

async function execute(
  wallet: Wallet,
  built: BuiltJson,
  signature: string[],
  headers: Record<string, string> = {},
  typed: unknown = built.typed_data,
) {
  const transaction = {
    type: built.type,
    invoke: { user_address: wallet.address, typed_data: typed, signature },
    ...(built.deployment === undefined ? {} : { deployment: built.deployment }),
  };
  return rpc(
    '/paymaster',
    'paymaster_executeTransaction',
    { transaction, parameters: built.parameters },
    headers,
  );
}

async function fund(wallet: Wallet): Promise<void> {
  const response = await fetch(`${url}/sandbox/chain/fund`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address: wallet.address }),
  });
  expect(response.status).toBe(200);
}

async function knob(path: string, body: unknown): Promise<void> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/** build + sign + execute; returns the receipt. */
async function transact(
  wallet: Wallet,
  calls: unknown[],
  parameters: unknown,
  deploy: boolean,
  headers: Record<string, string> = {},
) {
  const built = await build(wallet, calls, parameters, deploy, headers);
  expect(built.error).toBeUndefined();
  const executed = await execute(
    wallet,
    built.result,
    sign(wallet, built.result.typed_data),
    headers,
  );
  expect(executed.error).toBeUndefined();
  const receipt = await rpc('/rpc', 'starknet_getTransactionReceipt', {
    transaction_hash: executed.result.transaction_hash,
  });
  return { built: built.result as BuiltJson, receipt: receipt.result as ReceiptJson };
}

beforeAll(async () => {
  app = await buildChainEmulator({
    pools: resolvePools(DEFAULT_POOLS),
    paymasterApiKey: API_KEY,
    now: () => clock,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await app?.close();
});

describe('JSON-RPC', () => {
  it('chain id, spec version, and an unknown method names what is served', async () => {
    expect((await rpc('/rpc', 'starknet_chainId')).result).toBe('0x534e5f53414e44424f58');
    expect((await rpc('/rpc', 'starknet_specVersion')).result).toMatch(/^0\.10\./);
    const unknown = await rpc('/rpc', 'starknet_getStateUpdate', { block_id: 'latest' });
    expect(unknown.error?.code).toBe(-32601);
    expect(unknown.error?.data).toContain('starknet_call');
    expect((await rpc('/rpc', 'paymaster_isAvailable')).error?.code).toBe(-32601);
    expect((await rpc('/paymaster', 'paymaster_isAvailable')).result).toBe(true);
  });

  it('bad JSON is -32700; a bad request -32600; bad params -32602 naming the parameter', async () => {
    const parse = await fetch(`${url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jsonrpc":',
    });
    expect(await parse.json()).toMatchObject({ error: { code: -32700 } });
    const bad = await fetch(`${url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"method": 1}',
    });
    expect(await bad.json()).toMatchObject({ error: { code: -32600 } });
    const params = await rpc('/rpc', 'starknet_getClassHashAt', {
      block_id: 'latest',
      contract_address: 'not-a-felt',
    });
    expect(params.error).toMatchObject({ code: -32602 });
    expect(params.error?.data).toContain('contract_address');
    const tooBig = await rpc('/rpc', 'starknet_getClassHashAt', {
      block_id: 'latest',
      contract_address: hex(2n ** 252n),
    });
    expect(tooBig.error?.code).toBe(-32602);
  });

  it('batches answer in order, up to 20 requests', async () => {
    const batch = (n: number) =>
      fetch(`${url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(
          Array.from({ length: n }, (_, i) => ({
            jsonrpc: '2.0',
            id: i,
            method: 'starknet_chainId',
          })),
        ),
      }).then((r) => r.json() as Promise<Array<{ id: number }> | Reply>);
    const ok = await batch(20);
    expect(ok).toHaveLength(20);
    expect((ok as Array<{ id: number }>).map((r) => r.id)).toEqual([...Array(20).keys()]);
    expect(await batch(21)).toMatchObject({ error: { code: -32600 } });
    expect(await batch(0)).toMatchObject({ error: { code: -32600 } });
  });

  it('a notification (no id) gets no reply, alone or in a batch; a bad id is -32600 with id null', async () => {
    const post = (body: unknown) =>
      fetch(`${url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const alone = await post({ jsonrpc: '2.0', method: 'starknet_chainId' });
    expect(alone.status).toBe(204);
    expect(await alone.text()).toBe('');
    // a notification that fails is not answered either
    expect((await post({ jsonrpc: '2.0', method: 'no_such_method' })).status).toBe(204);
    const onlyNotifications = await post([
      { jsonrpc: '2.0', method: 'starknet_chainId' },
      { jsonrpc: '2.0', method: 'starknet_blockNumber' },
    ]);
    expect(onlyNotifications.status).toBe(204);
    const mixed = await post([
      { jsonrpc: '2.0', method: 'starknet_chainId' },
      { jsonrpc: '2.0', id: 'b', method: 'starknet_chainId' },
      { jsonrpc: '2.0', id: null, method: 'starknet_chainId' },
    ]);
    expect(await mixed.json()).toEqual([
      { jsonrpc: '2.0', id: 'b', result: '0x534e5f53414e44424f58' },
      { jsonrpc: '2.0', id: null, result: '0x534e5f53414e44424f58' },
    ]);
    expect(
      await (await post({ jsonrpc: '2.0', id: { x: 1 }, method: 'starknet_chainId' })).json(),
    ).toMatchObject({ id: null, error: { code: -32600 } });
    // an invalid request is answered even without an id (it cannot be told to be a notification)
    expect(await (await post({ jsonrpc: '1.0', method: 'starknet_chainId' })).json()).toMatchObject(
      { id: null, error: { code: -32600 } },
    );
  });

  it('positional params work as named ones', async () => {
    const wallet = newWallet();
    const { error } = await rpc('/rpc', 'starknet_getClassHashAt', ['latest', wallet.address]);
    expect(error?.code).toBe(20);
  });

  it('a body over 1 MB is refused', async () => {
    const response = await fetch(`${url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'starknet_chainId',
        params: { pad: 'x'.repeat(1_100_000) },
      }),
    });
    expect(response.status).toBe(413);
  });
});

describe('reads', () => {
  it('ERC-20 reads: balance as u256, decimals, symbol; an unknown entry point is 21, a revert 40; nothing at an address is 20', async () => {
    const wallet = newWallet();
    await fund(wallet);
    expect(await balance(STRK.address, wallet.address)).toBe(20_000n * 10n ** 18n);
    expect(await balance(USDC.address, wallet.address)).toBe(10_000_000_000n);
    const decimals = await rpc('/rpc', 'starknet_call', {
      request: {
        contract_address: USDC.address,
        entry_point_selector: hex(SELECTOR.decimals),
        calldata: [],
      },
      block_id: 'latest',
    });
    expect(decimals.result).toEqual(['0x6']);
    const symbol = await rpc('/rpc', 'starknet_call', {
      request: {
        contract_address: ETH.address,
        entry_point_selector: hex(SELECTOR.symbol),
        calldata: [],
      },
      block_id: 'latest',
    });
    expect(Buffer.from(symbol.result[0].slice(2), 'hex').toString()).toBe('ETH');
    const unknown = await rpc('/rpc', 'starknet_call', {
      request: { contract_address: ETH.address, entry_point_selector: '0x1234', calldata: [] },
      block_id: 'latest',
    });
    expect(unknown.error).toMatchObject({
      code: 21,
      message: 'Requested entry point does not exist in the contract',
    });
    const reverted = await rpc('/rpc', 'starknet_call', {
      request: {
        contract_address: ETH.address,
        entry_point_selector: hex(SELECTOR.balance_of),
        calldata: [],
      },
      block_id: 'latest',
    });
    expect(reverted.error).toMatchObject({
      code: 40,
      data: { revert_error: expect.stringContaining('deserialize') },
    });
    const nothing = await rpc('/rpc', 'starknet_call', {
      request: {
        contract_address: wallet.address,
        entry_point_selector: hex(SELECTOR.decimals),
        calldata: [],
      },
      block_id: 'latest',
    });
    expect(nothing.error?.code).toBe(20);
    expect(
      (
        await rpc('/rpc', 'starknet_getNonce', {
          block_id: 'latest',
          contract_address: wallet.address,
        })
      ).error?.code,
    ).toBe(20);
  });

  it('an unknown transaction is 29; a block the chain does not keep is 24', async () => {
    expect(
      (await rpc('/rpc', 'starknet_getTransactionStatus', { transaction_hash: '0x1234' })).error
        ?.code,
    ).toBe(29);
    expect(
      (await rpc('/rpc', 'starknet_getTransactionReceipt', { transaction_hash: '0x1234' })).error
        ?.code,
    ).toBe(29);
    expect(
      (
        await rpc('/rpc', 'starknet_getClassHashAt', {
          block_id: { block_number: 999_999 },
          contract_address: ETH.address,
        })
      ).error?.code,
    ).toBe(24);
  });

  it('supported tokens are priced in STRK from the pools: STRK is 1, ETH 6000, USDC 2', async () => {
    const { result } = await rpc('/paymaster', 'paymaster_getSupportedTokens');
    const tokens = result as Array<{
      token_address: string;
      decimals: number;
      price_in_strk: string;
    }>;
    const entry = (address: string) =>
      tokens.find((t) => BigInt(t.token_address) === BigInt(address));
    const price = (address: string) => BigInt(entry(address)?.price_in_strk ?? -1);
    expect(price(STRK.address)).toBe(10n ** 18n);
    expect(price(ETH.address)).toBe(6_000n * 10n ** 18n);
    expect(price(USDC.address)).toBe(2n * 10n ** 18n);
    expect(entry(USDC.address)?.decimals).toBe(6);
  });
});

describe('paymaster build', () => {
  it('deploy_and_invoke in default mode: SNIP-9 v2 typed data with one last fee transfer of the suggested maximum', async () => {
    const wallet = newWallet();
    await fund(wallet);
    const call = transferCall(STRK.address, '0x1234', 5n);
    const { result, error } = await build(wallet, [call], payIn(STRK.address), true);
    expect(error).toBeUndefined();
    expect(result.type).toBe('deploy_and_invoke');
    // the deployment echoed with its felts canonical (SNIP-29's FELT has no leading zeros)
    const canonical = (felt: string) => hex(BigInt(felt));
    const sent = deployment(wallet);
    expect(result.deployment).toEqual({
      ...sent,
      address: canonical(sent.address),
      class_hash: canonical(sent.class_hash),
      salt: canonical(sent.salt),
      calldata: sent.calldata.map(canonical),
    });
    expect(Object.keys(result.fee).sort()).toEqual([
      'estimated_fee_in_gas_token',
      'estimated_fee_in_strk',
      'gas_token_price_in_strk',
      'suggested_max_fee_in_gas_token',
      'suggested_max_fee_in_strk',
    ]);
    for (const value of Object.values(result.fee)) expect(value).toMatch(/^0x[0-9a-f]+$/);
    const { domain, message, primaryType } = result.typed_data;
    expect(domain).toEqual({
      name: 'Account.execute_from_outside',
      version: '2',
      chainId: 'SN_SANDBOX',
      revision: '1',
    });
    expect(primaryType).toBe('OutsideExecution');
    expect(BigInt(message.Caller)).toBe(FORWARDER_ADDRESS);
    expect(message.Calls).toHaveLength(2);
    expect(message.Calls[0]).toEqual({
      To: hex(BigInt(STRK.address)),
      Selector: call.selector,
      Calldata: call.calldata,
    });
    const fee = message.Calls[1];
    expect(BigInt(fee.To)).toBe(BigInt(STRK.address));
    expect(BigInt(fee.Selector)).toBe(SELECTOR.transfer);
    expect(BigInt(fee.Calldata[1])).toBe(BigInt(result.fee.suggested_max_fee_in_gas_token));
    expect(BigInt(message['Execute Before'])).toBe(BigInt(Math.floor(clock / 1000) + 3600));
  });

  it('sponsored: no fee call, and the API key is required', async () => {
    const wallet = newWallet();
    await fund(wallet);
    const without = await build(
      wallet,
      [transferCall(STRK.address, '0x1234', 5n)],
      sponsored,
      true,
    );
    expect(without.error).toMatchObject({ code: 163 });
    const withKey = await build(
      wallet,
      [transferCall(STRK.address, '0x1234', 5n)],
      sponsored,
      true,
      { 'x-paymaster-api-key': API_KEY },
    );
    expect(withKey.result.typed_data.message.Calls).toHaveLength(1);
  });

  it.each([
    {
      code: 150,
      why: 'an invoke for an account that is not deployed',
      make: (w: Wallet) =>
        build(w, [transferCall(STRK.address, '0x1', 1n)], payIn(STRK.address), false),
    },
    {
      code: 151,
      why: 'a gas token the paymaster does not take',
      make: (w: Wallet) => build(w, [transferCall(STRK.address, '0x1', 1n)], payIn('0x1234'), true),
    },
    {
      code: 155,
      why: 'another account class',
      make: (w: Wallet) =>
        rpc('/paymaster', 'paymaster_buildTransaction', {
          transaction: {
            type: 'deploy_and_invoke',
            invoke: { user_address: w.address, calls: [transferCall(STRK.address, '0x1', 1n)] },
            deployment: { ...deployment(w), class_hash: '0x1234' },
          },
          parameters: payIn(STRK.address),
        }),
    },
    {
      code: 158,
      why: 'a deployment of another key',
      make: (w: Wallet) =>
        rpc('/paymaster', 'paymaster_buildTransaction', {
          transaction: {
            type: 'deploy_and_invoke',
            invoke: { user_address: w.address, calls: [transferCall(STRK.address, '0x1', 1n)] },
            deployment: deployment(newWallet()),
          },
          parameters: payIn(STRK.address),
        }),
    },
    {
      code: 157,
      why: 'time bounds already past',
      make: (w: Wallet) =>
        build(
          w,
          [transferCall(STRK.address, '0x1', 1n)],
          {
            ...payIn(STRK.address),
            time_bounds: { execute_after: 1, execute_before: Math.floor(clock / 1000) - 10 },
          },
          true,
        ),
    },
    {
      code: -32602,
      why: '33 calls',
      make: (w: Wallet) =>
        build(
          w,
          Array.from({ length: 33 }, () => transferCall(STRK.address, '0x1', 1n)),
          payIn(STRK.address),
          true,
        ),
    },
  ])('refuses $why with $code', async ({ code, make }) => {
    const { error } = await make(newWallet());
    expect(error?.code).toBe(code);
  });
});

describe('paymaster execute', () => {
  it('deploys on the first transaction, moves exactly the amounts, refunds the fee above what is due', async () => {
    const wallet = newWallet();
    await fund(wallet);
    const to = `0x0${randomBytes(31).toString('hex')}`;
    const before = await balance(STRK.address, wallet.address);
    const { built, receipt } = await transact(
      wallet,
      [transferCall(STRK.address, to, 7n * 10n ** 18n)],
      payIn(STRK.address),
      true,
    );
    expect(receipt).toMatchObject({
      execution_status: 'SUCCEEDED',
      finality_status: 'ACCEPTED_ON_L2',
      actual_fee: { unit: 'FRI' },
    });
    const fee = BigInt(receipt.actual_fee.amount);
    expect(fee).toBe(BigInt(built.fee.estimated_fee_in_strk ?? -1));
    expect(await balance(STRK.address, wallet.address)).toBe(before - 7n * 10n ** 18n - fee);
    expect(await balance(STRK.address, to)).toBe(7n * 10n ** 18n);
    expect(
      (
        await rpc('/rpc', 'starknet_getClassHashAt', {
          block_id: 'latest',
          contract_address: wallet.address,
        })
      ).result,
    ).toBe(hex(BigInt(ARGENT_X_V050_CLASS_HASH)));
    expect(
      (
        await rpc('/rpc', 'starknet_getNonce', {
          block_id: 'latest',
          contract_address: wallet.address,
        })
      ).result,
    ).toBe('0x1');
    // account → forwarder (max), forwarder → account (refund), then the relayer's network fee
    const moved = receipt.events.map((event) => ({
      from: BigInt(event.data[0] ?? -1),
      to: BigInt(event.data[1] ?? -1),
      amount: BigInt(event.data[2] ?? -1),
    }));
    const max = BigInt(built.fee.suggested_max_fee_in_gas_token ?? -1);
    expect(moved.slice(1)).toEqual([
      { from: BigInt(wallet.address), to: FORWARDER_ADDRESS, amount: max },
      { from: FORWARDER_ADDRESS, to: BigInt(wallet.address), amount: max - fee },
      { from: RELAYER_ADDRESS, to: expect.any(BigInt), amount: fee },
    ]);
    // the account now answers the SNIP-9 v2 interface query starknet.js makes
    const supports = await rpc('/rpc', 'starknet_call', {
      request: {
        contract_address: wallet.address,
        entry_point_selector: hex(selectorOf('supports_interface')),
        calldata: ['0x1d1144bb2138366ff28d8e9ab57456b1d332ac42196230c3a602003c89872'],
      },
      block_id: 'latest',
    });
    expect(supports.result).toEqual(['0x1']);
  });

  it('refuses a signature by another key (153), accepts the long form [1, 0, pubkey, r, s]', async () => {
    const wallet = newWallet();
    await fund(wallet);
    const built = (
      await build(wallet, [transferCall(STRK.address, '0x1234', 1n)], payIn(STRK.address), true)
    ).result;
    const forged = await execute(
      wallet,
      built,
      sign({ ...newWallet(), address: wallet.address }, built.typed_data),
    );
    expect(forged.error).toMatchObject({ code: 153 });
    const [r, s] = sign(wallet, built.typed_data);
    const long = await execute(wallet, built, [
      '0x1',
      '0x0',
      wallet.publicKey,
      r as string,
      s as string,
    ]);
    expect(long.error).toBeUndefined();
  });

  it('refuses typed data other than the one built (156), an unknown nonce (156), and a replay (156)', async () => {
    const wallet = newWallet();
    await fund(wallet);
    const built = (
      await build(wallet, [transferCall(STRK.address, '0x1234', 1n)], payIn(STRK.address), true)
    ).result;
    const altered = structuredClone(built.typed_data);
    altered.message.Calls[0].Calldata[1] = '0x2';
    const signedAltered = sign(wallet, altered);
    expect((await execute(wallet, built, signedAltered, {}, altered)).error).toMatchObject({
      code: 156,
    });
    const otherNonce = {
      ...structuredClone(built.typed_data),
      message: { ...built.typed_data.message, Nonce: '0x99' },
    };
    expect(
      (await execute(wallet, built, sign(wallet, otherNonce), {}, otherNonce)).error,
    ).toMatchObject({ code: 156 });
    const signature = sign(wallet, built.typed_data);
    expect((await execute(wallet, built, signature)).error).toBeUndefined();
    expect((await execute(wallet, built, signature)).error).toMatchObject({ code: 156 });
  });

  it('never hashes typed data it did not build: an exponential type graph is refused at once', async () => {
    const wallet = newWallet();
    await fund(wallet);
    const built = (
      await build(wallet, [transferCall(STRK.address, '0x1234', 1n)], payIn(STRK.address), true)
    ).result;
    const types: Record<string, Array<{ name: string; type: string }>> = {
      ...built.typed_data.types,
    };
    // each type names the next twice: hashing this walks 2^30 paths (starknet.js does not memoise)
    for (let depth = 0; depth < 30; depth += 1)
      types[`T${depth}`] = [
        { name: 'a', type: `T${depth + 1}` },
        { name: 'b', type: `T${depth + 1}` },
      ];
    types.T30 = [{ name: 'c', type: 'felt' }];
    types.OutsideExecution = [...(types.OutsideExecution ?? []), { name: 'x', type: 'T0' }];
    const hostile = { ...built.typed_data, types };
    expect((await execute(wallet, built, ['0x1', '0x2'], {}, hostile)).error).toMatchObject({
      code: 156,
    });
  });

  it('refuses an expired build by the emulator clock (156: SNIP-29 execute has no time-bounds error)', async () => {
    const wallet = newWallet();
    await fund(wallet);
    const built = (
      await build(wallet, [transferCall(STRK.address, '0x1234', 1n)], payIn(STRK.address), true)
    ).result;
    const signature = sign(wallet, built.typed_data);
    clock += 3_601_000;
    try {
      expect((await execute(wallet, built, signature)).error).toMatchObject({
        code: 156,
        data: { execution_error: expect.stringContaining('expired') },
      });
    } finally {
      clock -= 3_601_000;
    }
  });

  it('154 when the fee due rose above the signed maximum; the same build succeeds once the price is back', async () => {
    const wallet = newWallet();
    await fund(wallet);
    const built = (
      await build(wallet, [transferCall(STRK.address, '0x1234', 1n)], payIn(STRK.address), true)
    ).result;
    const signature = sign(wallet, built.typed_data);
    await knob('/sandbox/chain/gas-price', { l2GasPrice: '20000000000' });
    try {
      expect((await execute(wallet, built, signature)).error).toMatchObject({ code: 154 });
    } finally {
      await knob('/sandbox/chain/gas-price', { l2GasPrice: '10000000000' });
    }
    expect((await execute(wallet, built, signature)).error).toBeUndefined();
  });

  it('a revert changes nothing (not even the fee or the deployment), advances the nonce, and says why', async () => {
    const wallet = newWallet();
    await fund(wallet);
    await transact(wallet, [transferCall(STRK.address, '0x1234', 1n)], payIn(STRK.address), true);
    const before = await Promise.all(
      [STRK, USDC, ETH].map((t) => balance(t.address, wallet.address)),
    );
    // the build simulates: calls that would revert are refused there with the reason, nothing relayed
    const refused = await build(
      wallet,
      [
        transferCall(STRK.address, '0x1234', 10n ** 18n),
        transferCall(USDC.address, '0x1234', 10n ** 30n),
      ],
      payIn(STRK.address),
      false,
    );
    expect(refused.error).toMatchObject({
      code: 156,
      message: 'An error occurred (TRANSACTION_EXECUTION_ERROR)',
    });
    expect((refused.error!.data as { execution_error: string }).execution_error).toContain(
      'ERC20: insufficient balance',
    );
    expect(
      await Promise.all([STRK, USDC, ETH].map((t) => balance(t.address, wallet.address))),
    ).toEqual(before);
    // built while it would succeed, then the USDC leaves before the execution: it reverts there,
    // the first call succeeds, the second fails, and the first must not stick
    const usdcHeld = before[1] as bigint;
    const calls = [
      transferCall(STRK.address, '0x1234', 10n ** 18n),
      transferCall(USDC.address, '0x1234', usdcHeld),
    ];
    const pending = await build(wallet, calls, payIn(STRK.address), false);
    expect(pending.error).toBeUndefined();
    const drained = await transact(
      wallet,
      [transferCall(USDC.address, '0x1234', 1n)],
      sponsored,
      false,
      { 'x-paymaster-api-key': API_KEY },
    );
    expect(drained.receipt.execution_status).toBe('SUCCEEDED');
    const afterDrain = await Promise.all(
      [STRK, USDC, ETH].map((t) => balance(t.address, wallet.address)),
    );
    const executed = await execute(wallet, pending.result, sign(wallet, pending.result.typed_data));
    expect(executed.error).toBeUndefined();
    const receipt = (
      await rpc('/rpc', 'starknet_getTransactionReceipt', {
        transaction_hash: executed.result.transaction_hash,
      })
    ).result as ReceiptJson;
    expect(receipt.execution_status).toBe('REVERTED');
    expect(receipt.revert_reason).toContain('ERC20: insufficient balance');
    expect(
      await Promise.all([STRK, USDC, ETH].map((t) => balance(t.address, wallet.address))),
    ).toEqual(afterDrain);
    expect(receipt.events).toHaveLength(1); // the relayer's network fee only
    expect(
      (
        await rpc('/rpc', 'starknet_getNonce', {
          block_id: 'latest',
          contract_address: wallet.address,
        })
      ).result,
    ).toBe('0x3');
    const status = await rpc('/rpc', 'starknet_getTransactionStatus', {
      transaction_hash: receipt.transaction_hash,
    });
    expect(status.result).toMatchObject({
      finality_status: 'ACCEPTED_ON_L2',
      execution_status: 'REVERTED',
    });

    // a deploy_and_invoke that reverts leaves the account undeployed
    const fresh = newWallet();
    await fund(fresh);
    await knob('/sandbox/chain/revert-next', { reason: 'forced' });
    const forced = await transact(
      fresh,
      [transferCall(STRK.address, '0x1234', 1n)],
      payIn(STRK.address),
      true,
    );
    expect(forced.receipt.revert_reason).toContain("'forced'");
    expect(
      (
        await rpc('/rpc', 'starknet_getClassHashAt', {
          block_id: 'latest',
          contract_address: fresh.address,
        })
      ).error?.code,
    ).toBe(20);
  });

  it('confirm delay: the node does not know the transaction (29) until the delay has passed', async () => {
    const wallet = newWallet();
    await fund(wallet);
    await knob('/sandbox/chain/confirm-delay', { ms: 5_000 });
    try {
      const built = (
        await build(wallet, [transferCall(STRK.address, '0x1234', 1n)], payIn(STRK.address), true)
      ).result;
      const { result } = await execute(wallet, built, sign(wallet, built.typed_data));
      expect(
        (
          await rpc('/rpc', 'starknet_getTransactionStatus', {
            transaction_hash: result.transaction_hash,
          })
        ).error?.code,
      ).toBe(29);
      clock += 5_000;
      expect(
        (
          await rpc('/rpc', 'starknet_getTransactionStatus', {
            transaction_hash: result.transaction_hash,
          })
        ).result?.finality_status,
      ).toBe('ACCEPTED_ON_L2');
    } finally {
      await knob('/sandbox/chain/confirm-delay', { ms: 0 });
    }
  });
});

describe('simulateTransactions', () => {
  const v3 = {
    resource_bounds: {
      l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
      l2_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
      l1_data_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
    },
    tip: '0x0',
    paymaster_data: [],
    nonce_data_availability_mode: 'L1',
    fee_data_availability_mode: 'L1',
  };
  const invoke = (
    sender: string,
    calls: Array<{ to: string; selector: string; calldata: string[] }>,
  ) => ({
    type: 'INVOKE',
    version: '0x3',
    sender_address: sender,
    calldata: [
      hex(BigInt(calls.length)),
      ...calls.flatMap((c) => [c.to, c.selector, hex(BigInt(c.calldata.length)), ...c.calldata]),
    ],
    signature: [],
    nonce: '0x0',
    account_deployment_data: [],
    ...v3,
  });
  const deployAccount = (wallet: Wallet) => ({
    type: 'DEPLOY_ACCOUNT',
    version: '0x3',
    class_hash: ARGENT_X_V050_CLASS_HASH,
    contract_address_salt: wallet.publicKey,
    constructor_calldata: ['0x0', wallet.publicKey, '0x1'],
    signature: [],
    nonce: '0x0',
    ...v3,
  });

  it('deploy then invoke on a throw-away state: events on their invocation, fee fields, nothing applied', async () => {
    const wallet = newWallet();
    await fund(wallet);
    const before = await balance(STRK.address, wallet.address);
    const { result, error } = await rpc('/rpc', 'starknet_simulateTransactions', {
      block_id: 'latest',
      transactions: [
        deployAccount(wallet),
        invoke(wallet.address, [transferCall(STRK.address, '0x1234', 9n)]),
      ],
      simulation_flags: ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE'],
    });
    expect(error).toBeUndefined();
    expect(result).toHaveLength(2);
    expect(result[0].transaction_trace.type).toBe('DEPLOY_ACCOUNT');
    const execution = result[1].transaction_trace.execute_invocation;
    expect(BigInt(execution.contract_address)).toBe(BigInt(wallet.address));
    const transfer = execution.calls[0];
    expect(BigInt(transfer.contract_address)).toBe(BigInt(STRK.address));
    expect(transfer.events).toEqual([
      {
        order: 0,
        keys: [expect.any(String)],
        data: [hex(BigInt(wallet.address)), '0x1234', '0x9', '0x0'],
      },
    ]);
    for (const field of [
      'l1_gas_consumed',
      'l1_gas_price',
      'l1_data_gas_consumed',
      'l1_data_gas_price',
      'l2_gas_consumed',
      'l2_gas_price',
      'overall_fee',
    ]) {
      expect(result[1].fee_estimation[field]).toMatch(/^0x[0-9a-f]+$/);
    }
    expect(await balance(STRK.address, wallet.address)).toBe(before);
    expect(
      (
        await rpc('/rpc', 'starknet_getClassHashAt', {
          block_id: 'latest',
          contract_address: wallet.address,
        })
      ).error?.code,
    ).toBe(20);
  });

  it('a reverting invoke has a revert_reason; an undeployed sender, or a signature that does not validate, is error 41', async () => {
    const wallet = newWallet();
    await fund(wallet);
    const reverted = await rpc('/rpc', 'starknet_simulateTransactions', {
      block_id: 'latest',
      transactions: [
        deployAccount(wallet),
        invoke(wallet.address, [transferCall(STRK.address, '0x1234', 10n ** 30n)]),
      ],
      simulation_flags: ['SKIP_VALIDATE'],
    });
    expect(reverted.result[1].transaction_trace.execute_invocation.revert_reason).toContain(
      'ERC20: insufficient balance',
    );
    const undeployed = await rpc('/rpc', 'starknet_simulateTransactions', {
      block_id: 'latest',
      transactions: [invoke(wallet.address, [transferCall(STRK.address, '0x1234', 1n)])],
      simulation_flags: ['SKIP_VALIDATE'],
    });
    expect(undeployed.error).toMatchObject({ code: 41, data: { transaction_index: 0 } });
    // without SKIP_VALIDATE the account validates: an empty signature does not
    const validated = await rpc('/rpc', 'starknet_simulateTransactions', {
      block_id: 'latest',
      transactions: [deployAccount(wallet)],
      simulation_flags: [],
    });
    expect(validated.error).toMatchObject({
      code: 41,
      data: { transaction_index: 0, execution_error: expect.stringContaining('validation failed') },
    });
  });
});

describe('deployedAddress', () => {
  it("is the formula's for any deployment, and the key's remembered address for an ArgentX account salted with its key", () => {
    const key = BigInt(getStarkKey(utils.randomPrivateKey()));
    const argent = [0n, key, 1n];
    const formula = (salt: bigint, cls: bigint, calldata: bigint[]): bigint =>
      BigInt(contractAddress(0n, salt, cls, calldata));
    expect(deployedAddress(CLASS_HASH.argent, key, argent)).toBe(
      formula(key, CLASS_HASH.argent, argent),
    );
    expect(deployedAddress(CLASS_HASH.argent, key, argent)).toBe(
      BigInt(argentAccountAddressInMemory(`0x${key.toString(16)}`)),
    );
    // another salt, another class or calldata: the formula itself
    for (const [salt, cls, calldata] of [
      [key + 1n, CLASS_HASH.argent, argent],
      [key, CLASS_HASH.forwarder, argent],
      [key, CLASS_HASH.argent, [0n, key, 0n]],
    ] as const)
      expect(deployedAddress(cls, salt, [...calldata])).toBe(formula(salt, cls, [...calldata]));
  });
});
