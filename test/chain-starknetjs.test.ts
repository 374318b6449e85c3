/**
 * A third-party client against the sandbox chain, unchanged: starknet.js 10's own high-level
 * calls — RpcProvider, Account, PaymasterRpc, Contract — pointed at the emulator's URLs, as any
 * Starknet tool would be (docs/sandbox-chain.md "Using it"). Nothing here is our client code.
 */
import type { FastifyInstance } from 'fastify';
import { Account, Contract, logger, PaymasterRpc, RpcProvider, type Abi } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectorOf, TRANSFER_EVENT_KEY } from '../shared/erc20.js';
import { ARGENT_X_V050_CLASS_HASH } from '../shared/starknet.js';
import { resolveToken } from '../shared/tokens.js';
import { DEFAULT_POOLS, resolvePools } from '../sandbox/aggregator/pools.js';
import { buildChainEmulator } from '../sandbox/chain/app.js';
import { balanceSlot } from '../sandbox/chain/storage.js';
import { canonical, newWallet, type Wallet } from './helpers/chain-wallet.js';

const STRK = resolveToken('mainnet', 'STRK');
const USDC = resolveToken('mainnet', 'USDC');

let app: FastifyInstance;
let rpcUrl: string;
let paymasterUrl: string;
let provider: RpcProvider;

async function fund(wallet: Wallet): Promise<void> {
  const response = await fetch(rpcUrl.replace('/rpc', '/sandbox/chain/fund'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address: wallet.address }),
  });
  expect(response.status).toBe(200);
}

const deploymentData = (wallet: Wallet) => ({
  address: wallet.address,
  class_hash: ARGENT_X_V050_CLASS_HASH,
  salt: wallet.publicKey,
  calldata: ['0x0', wallet.publicKey, '0x1'],
  version: 1 as const,
});

const accountOf = (wallet: Wallet): Account =>
  new Account({
    provider,
    address: wallet.address,
    signer: wallet.privateKey,
    paymaster: new PaymasterRpc({ nodeUrl: paymasterUrl }),
  });

const strkTransfer = (to: string, amount: bigint) => ({
  contractAddress: STRK.address,
  entrypoint: 'transfer',
  calldata: [to, amount.toString(), '0'],
});

/** alice's account, deployed in beforeAll (by a deploy-only paymaster transaction) */
const alice = newWallet();
const bob = newWallet();
/** funded and never sent to: its balances stay the faucet's, whichever test ran before */
const erin = newWallet();

/** Deploys `wallet`'s account by a deploy-only paymaster transaction; its hash. */
async function deployByPaymaster(wallet: Wallet): Promise<string> {
  const { transaction_hash } = await accountOf(wallet).executePaymasterTransaction([], {
    feeMode: { mode: 'default', gasToken: STRK.address },
    deploymentData: deploymentData(wallet),
  });
  const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 10 });
  expect(receipt.isSuccess()).toBe(true);
  return transaction_hash;
}

beforeAll(async () => {
  // starknet.js warns through console when it finds fewer than 10 tips to average; the sandbox has few blocks
  logger.setLogLevel('ERROR');
  app = await buildChainEmulator({ pools: resolvePools(DEFAULT_POOLS) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  rpcUrl = `${base}/rpc`;
  paymasterUrl = `${base}/paymaster`;
  provider = new RpcProvider({ nodeUrl: rpcUrl });
  await fund(alice);
  await fund(bob);
  await fund(erin);
  // every test may use alice's account; the deployment itself is shown by a test of its own
  await deployByPaymaster(alice);
});

afterAll(async () => {
  await app?.close();
});

describe('starknet.js against the sandbox chain', () => {
  it('RpcProvider.create reads the spec version; getBlock, getBlockNumber and getBlockWithTxs answer', async () => {
    const created = await RpcProvider.create({ nodeUrl: rpcUrl });
    expect(await created.getSpecVersion()).toBe('0.10.0');
    expect(await provider.getChainId()).toBe('0x534e5f53414e44424f58');
    const block = await provider.getBlock('latest');
    expect(block).toMatchObject({
      status: 'ACCEPTED_ON_L2',
      block_number: await provider.getBlockNumber(),
    });
    expect((await provider.getBlock('pre_confirmed')).block_number).toBe(block.block_number + 1);
  });

  it('a deploy-only paymaster transaction (executePaymasterTransaction with no calls) deploys the account', async () => {
    const dave = newWallet();
    await fund(dave);
    const transaction_hash = await deployByPaymaster(dave);
    expect(BigInt(await provider.getClassHashAt(dave.address))).toBe(
      BigInt(ARGENT_X_V050_CLASS_HASH),
    );
    // nothing the account signed ran: its nonce is still 0
    expect(BigInt(await provider.getNonceForAddress(dave.address))).toBe(0n);
    const tx = await provider.getTransactionByHash(transaction_hash);
    expect(tx).toMatchObject({ type: 'INVOKE', version: '0x3' });
  });

  it('Account.estimateInvokeFee with its defaults (tip from the last blocks, SKIP_VALIDATE)', async () => {
    const estimate = await accountOf(alice).estimateInvokeFee([
      strkTransfer(bob.address, 10n ** 18n),
    ]);
    // the sandbox's fee model: 1 000 000 + 300 000 per call L2 gas at 10^10, 128 + 64 per call L1 data gas at 10^12;
    // starknet.js adds its own margin on top of what the node estimates
    expect(estimate.unit).toBe('FRI');
    expect(estimate.resourceBounds.l2_gas.max_amount).toBeGreaterThanOrEqual(1_300_000n);
    expect(estimate.resourceBounds.l1_data_gas.max_amount).toBeGreaterThanOrEqual(192n);
    expect(estimate.overall_fee).toBeGreaterThanOrEqual(
      1_300_000n * 10_000_000_000n + 192n * 1_000_000_000_000n,
    );
  });

  it('without SKIP_VALIDATE the account validates: what starknet.js signs passes, another key is 41', async () => {
    const calls = [strkTransfer(bob.address, 10n ** 18n)];
    const validated = await accountOf(alice).estimateInvokeFee(calls, { skipValidate: false });
    expect(validated.overall_fee).toBe(
      (await accountOf(alice).estimateInvokeFee(calls)).overall_fee,
    );
    const { simulated_transactions: simulated } = await accountOf(alice).simulateTransaction(
      [{ type: 'INVOKE', payload: calls }],
      { skipValidate: false },
    );
    expect(simulated).toHaveLength(1);
    const impostor = new Account({
      provider,
      address: alice.address,
      signer: newWallet().privateKey,
    });
    await expect(impostor.estimateInvokeFee(calls, { skipValidate: false })).rejects.toMatchObject({
      baseError: {
        code: 41,
        data: { execution_error: expect.stringContaining('validation failed') },
      },
    });
    // a deployment validates against the key in its constructor calldata
    const carol = newWallet();
    const deploy = {
      classHash: ARGENT_X_V050_CLASS_HASH,
      constructorCalldata: ['0x0', carol.publicKey, '0x1'],
      addressSalt: carol.publicKey,
      contractAddress: carol.address,
    };
    const deployFee = await new Account({
      provider,
      address: carol.address,
      signer: carol.privateKey,
    }).estimateAccountDeployFee(deploy, { skipValidate: false });
    expect(deployFee.overall_fee).toBeGreaterThan(0n);
    await expect(
      new Account({
        provider,
        address: carol.address,
        signer: bob.privateKey,
      }).estimateAccountDeployFee(deploy, { skipValidate: false }),
    ).rejects.toMatchObject({ baseError: { code: 41 } });
  });

  it('Account.simulateTransaction with default flags: the trace carries the transfer, nothing is applied', async () => {
    const before = await provider.callContract({
      contractAddress: STRK.address,
      entrypoint: 'balance_of',
      calldata: [alice.address],
    });
    const {
      simulated_transactions: [simulated],
    } = await accountOf(alice).simulateTransaction([
      { type: 'INVOKE', payload: [strkTransfer(bob.address, 7n)] },
    ]);
    const trace = simulated?.transaction_trace as {
      execute_invocation: {
        calls: Array<{
          contract_address: string;
          events: Array<{ keys: string[]; data: string[] }>;
        }>;
      };
    };
    const transfer = trace.execute_invocation.calls[0];
    expect(BigInt(transfer?.contract_address ?? 0)).toBe(BigInt(STRK.address));
    expect(transfer?.events[0]?.data.map(BigInt)).toEqual([
      BigInt(alice.address),
      BigInt(bob.address),
      7n,
      0n,
    ]);
    expect(
      await provider.callContract({
        contractAddress: STRK.address,
        entrypoint: 'balance_of',
        calldata: [alice.address],
      }),
    ).toEqual(before);
  });

  it('Contract with the ABI from getClassAt: balanceOf, decimals, symbol; supports_interface on the account', async () => {
    const { abi } = await provider.getClassAt(USDC.address);
    const usdc = new Contract({
      abi: abi as Abi,
      address: USDC.address,
      providerOrAccount: provider,
    });
    expect(await usdc.balanceOf(erin.address)).toBe(10_000_000_000n);
    expect(await usdc.balance_of(erin.address)).toBe(10_000_000_000n);
    expect(await usdc.decimals()).toBe(6n);
    expect(BigInt(await usdc.symbol())).toBe(BigInt(`0x${Buffer.from('USDC').toString('hex')}`));
    const accountClass = await provider.getClassAt(alice.address);
    const account = new Contract({
      abi: accountClass.abi as Abi,
      address: alice.address,
      providerOrAccount: provider,
    });
    expect(
      await account.supports_interface(
        '0x1d1144bb2138366ff28d8e9ab57456b1d332ac42196230c3a602003c89872',
      ),
    ).toBe(true);
    expect(await account.supports_interface('0x1234')).toBe(false);
  });

  it('a paymaster invoke through Contract.populate, then its Transfer events parsed with the discovered ABIs of both layouts', async () => {
    const account = accountOf(alice);
    const { abi: strkAbi } = await provider.getClassAt(STRK.address);
    const { abi: usdcAbi } = await provider.getClassAt(USDC.address);
    const strk = new Contract({
      abi: strkAbi as Abi,
      address: STRK.address,
      providerOrAccount: account,
    });
    const usdc = new Contract({
      abi: usdcAbi as Abi,
      address: USDC.address,
      providerOrAccount: account,
    });
    const calls = [
      strk.populate('transfer', [bob.address, 3n * 10n ** 18n]),
      usdc.populate('transfer', [bob.address, 5_000_000n]),
    ];
    const { transaction_hash } = await account.executePaymasterTransaction(calls, {
      feeMode: { mode: 'default', gasToken: STRK.address },
    });
    const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 10 });
    expect(receipt.isSuccess()).toBe(true);
    const transfers = [...strk.parseEvents(receipt), ...usdc.parseEvents(receipt)].flatMap(
      (parsed) => Object.entries(parsed).filter(([name]) => name.endsWith('::Transfer')),
    );
    const toBob = transfers
      .map(([, fields]) => fields as { from: bigint; to: bigint; value: bigint })
      .filter((t) => t.to === BigInt(bob.address));
    expect(toBob.map((t) => [t.from, t.value])).toEqual([
      [BigInt(alice.address), 3n * 10n ** 18n],
      [BigInt(alice.address), 5_000_000n],
    ]);
  });

  it('getEvents pages through the Transfer events of a token with continuation tokens; getStorageAt reads a balance', async () => {
    // a transfer of its own to a fresh address, for the events and the storage to show
    const frank = newWallet();
    const { transaction_hash } = await accountOf(alice).executePaymasterTransaction(
      [
        {
          contractAddress: USDC.address,
          entrypoint: 'transfer',
          calldata: [frank.address, '5000000', '0'],
        },
      ],
      { feeMode: { mode: 'default', gasToken: STRK.address } },
    );
    await provider.waitForTransaction(transaction_hash, { retryInterval: 10 });
    const pages: unknown[][] = [];
    let continuation: string | undefined;
    do {
      const chunk = await provider.getEvents({
        address: USDC.address,
        keys: [[canonical(`0x${TRANSFER_EVENT_KEY.toString(16)}`)]],
        chunk_size: 1,
        ...(continuation === undefined ? {} : { continuation_token: continuation }),
      });
      pages.push(chunk.events);
      continuation = chunk.continuation_token;
    } while (continuation !== undefined && pages.length < 20);
    const events = pages.flat() as Array<{ keys: string[]; data: string[] }>;
    // keyed layout: keys [Transfer, from, to], data [low, high]
    expect(
      events.map((e) => [BigInt(e.keys[1] ?? 0), BigInt(e.keys[2] ?? 0), BigInt(e.data[0] ?? 0)]),
    ).toContainEqual([BigInt(alice.address), BigInt(frank.address), 5_000_000n]);
    expect(pages.every((page) => page.length <= 1)).toBe(true);
    const storage = async (key: bigint) =>
      BigInt((await provider.getStorageAt(USDC.address, `0x${key.toString(16)}`)).value);
    expect(await storage(balanceSlot(BigInt(frank.address)))).toBe(5_000_000n);
    expect(await storage(balanceSlot(BigInt(frank.address)) + 1n)).toBe(0n);
    // a selector, not a storage variable: an unwritten slot reads 0
    expect(await storage(selectorOf('nothing'))).toBe(0n);
  });
});
