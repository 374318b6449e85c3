/**
 * Swaps on the sandbox chain, end to end over real sockets: the aggregator emulator's calldata,
 * executed by the chain's router on the same pools through the execution library (approve +
 * swap in one paymaster transaction), simulated first, and refused when the market moved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AggregatorClient, createAggregatorClient } from '../cli/clients/aggregator.js';
import {
  buildApproveCall,
  type ChainCall,
  type ExecutionAccount,
  executeCalls,
  executePrepared,
  readBalances,
  simulateCalls,
} from '../cli/core/chain/index.js';
import { ErrorCode } from '../shared/errors.js';
import { applyServiceFee, serviceFeeBps } from '../shared/fees.js';
import { ROUTER_ADDRESS } from '../shared/swap-calldata.js';
import { resolveToken, type Token } from '../shared/tokens.js';
import {
  postJson,
  routerAllowance,
  type SandboxStack,
  type Session,
  startSandboxStack,
} from './helpers/sandbox-session.js';
import { failure } from './helpers/failure.js';

const USDC = resolveToken('mainnet', 'USDC');
const ETH = resolveToken('mainnet', 'ETH');
const STRK = resolveToken('mainnet', 'STRK');
const DAI = resolveToken('mainnet', 'DAI');
const WBTC = resolveToken('mainnet', 'WBTC');

let stack: SandboxStack;
let dave: Session;
let ea: ExecutionAccount;
let aggregator: AggregatorClient;

/** Whether dave's account is on the chain yet (its first transaction, in whichever test, deploys it). */
async function daveDeployed(): Promise<boolean> {
  const { body } = await postJson(stack.handle.info.rpcUrl, {
    jsonrpc: '2.0',
    id: 1,
    method: 'starknet_getClassHashAt',
    params: { block_id: 'latest', contract_address: ea.address },
  });
  return body.result !== undefined;
}

async function balances(): Promise<Map<string, bigint>> {
  return new Map((await readBalances(ea)).map((b) => [b.token.symbol, b.balance]));
}

/** approve(router, exact amount) + swap, with the aggregator's calldata (checked by the client). */
async function swapCalls(tokenIn: Token, tokenOut: Token, amount: bigint, slippageBps = 100) {
  const { route, calldata } = await aggregator.getCalldata({
    amount,
    tokenIn: tokenIn.address,
    tokenOut: tokenOut.address,
    slippageBps,
    destination: ea.address,
  });
  const calls: ChainCall[] = [
    buildApproveCall(tokenIn, ROUTER_ADDRESS, amount),
    { contractAddress: ROUTER_ADDRESS, entrypoint: 'swap', calldata },
  ];
  return { route, calls, ...applyServiceFee(route.outputAmount, serviceFeeBps(route)) };
}

const allowance = (token: Token): Promise<bigint> =>
  routerAllowance(stack.handle.info.rpcUrl, ea.address, token.address);

beforeAll(async () => {
  stack = await startSandboxStack();
  dave = await stack.signIn('dave@example.com');
  ea = stack.account(dave);
  aggregator = createAggregatorClient({
    baseUrl: stack.handle.info.aggregatorUrl,
    network: 'mainnet',
    retries: 0,
  });
});

afterAll(async () => {
  await stack?.close();
});

describe('swaps on the sandbox chain', () => {
  it('approve + swap moves balances exactly as the Transfer events say, and moves the next quote', async () => {
    const amount = 1_000_000_000n; // 1000 USDC
    const before = await balances();
    const deployedBefore = await daveDeployed();
    const { route, calls, net, fee } = await swapCalls(USDC, ETH, amount);
    expect(fee).toBeGreaterThan(0n);
    const receipt = await executeCalls(ea, calls, { feeMode: 'sponsored' });
    // deployed by this transaction if by none before
    expect(receipt.deployed).toBe(!deployedBefore);
    expect(receipt.balanceChanges).toEqual([
      { token: USDC.address, symbol: 'USDC', decimals: 6, amount: -amount },
      { token: ETH.address, symbol: 'ETH', decimals: 18, amount: net },
    ]);
    const after = await balances();
    expect(after.get('USDC')).toBe((before.get('USDC') ?? 0n) - amount);
    expect(after.get('ETH')).toBe((before.get('ETH') ?? 0n) + net);
    // the approval was spent exactly
    expect(await allowance(USDC)).toBe(0n);
    const next = await aggregator.getRoute({
      amount,
      tokenIn: USDC.address,
      tokenOut: ETH.address,
    });
    expect(next.outputAmount).toBeLessThan(route.outputAmount);
  });

  it('a split route (two pools) and a two-hop route pay exactly the quoted output less the service fee', async () => {
    const split = await swapCalls(ETH, USDC, 5n * 10n ** 18n);
    expect(split.route.legs.length).toBe(2);
    const splitReceipt = await executeCalls(ea, split.calls, {
      feeMode: { gasToken: STRK.address },
    });
    expect(splitReceipt.balanceChanges).toEqual(
      expect.arrayContaining([
        { token: USDC.address, symbol: 'USDC', decimals: 6, amount: split.net },
        { token: ETH.address, symbol: 'ETH', decimals: 18, amount: -(5n * 10n ** 18n) },
      ]),
    );
    const hops = await swapCalls(DAI, WBTC, 1_000n * 10n ** 18n);
    expect(hops.route.legs[0]?.hops.length).toBe(2);
    const hopsReceipt = await executeCalls(ea, hops.calls, { feeMode: 'sponsored' });
    expect(hopsReceipt.balanceChanges).toEqual(
      expect.arrayContaining([
        { token: WBTC.address, symbol: 'WBTC', decimals: 8, amount: hops.net },
        { token: DAI.address, symbol: 'DAI', decimals: 18, amount: -(1_000n * 10n ** 18n) },
      ]),
    );
  });

  it('a simulation equals the executed result; the fee shows as at most the signed maximum', async () => {
    const { calls, net } = await swapCalls(STRK, USDC, 1_000n * 10n ** 18n);
    const before = await balances();
    const simulation = await simulateCalls(ea, calls, { feeMode: { gasToken: STRK.address } });
    expect(simulation.status).toBe('SUCCEEDED');
    expect(simulation.revertReason).toBeNull();
    // the fee transfer (the signed maximum) is not a balance change
    expect(simulation.balanceChanges).toEqual([
      { token: STRK.address, symbol: 'STRK', decimals: 18, amount: -(1_000n * 10n ** 18n) },
      { token: USDC.address, symbol: 'USDC', decimals: 6, amount: net },
    ]);
    expect(simulation.fee.mode).toBe('default');
    // nothing happened yet
    expect(await balances()).toEqual(before);
    const receipt = await executePrepared(ea, simulation.prepared);
    expect(receipt.balanceChanges).toEqual(simulation.balanceChanges);
    const max = simulation.fee.mode === 'default' ? simulation.fee.maxInGasToken : 0n;
    expect(receipt.feePaid?.amount).toBeGreaterThan(0n);
    expect(receipt.feePaid?.amount ?? max + 1n).toBeLessThanOrEqual(max);
    const after = await balances();
    expect(after.get('STRK')).toBe(
      (before.get('STRK') ?? 0n) - 1_000n * 10n ** 18n - (receipt.feePaid?.amount ?? 0n),
    );
    expect(after.get('USDC')).toBe((before.get('USDC') ?? 0n) + net);
  });

  it('the price moved between quote and execution: the paymaster refuses it at build (it simulates, as the real one does), nothing changes', async () => {
    const { calls } = await swapCalls(STRK, USDC, 2_000n * 10n ** 18n, 50);
    // a third party sells a lot of STRK into the same pools
    await stack.knob('/sandbox/chain/trade', {
      tokenIn: 'STRK',
      tokenOut: 'USDC',
      amount: '500000',
    });
    const before = await balances();
    const error = await failure(simulateCalls(ea, calls, { feeMode: { gasToken: STRK.address } }));
    expect(error.code).toBe(ErrorCode.PAYMASTER_REFUSED);
    expect(error.details?.paymasterCode).toBe(156);
    expect(error.message).toContain('nothing was sent');
    expect(await balances()).toEqual(before);
    expect(await allowance(STRK)).toBe(0n);
  });

  it('a trade scheduled right before the execution reverts a swap that simulated fine', async () => {
    const { calls } = await swapCalls(USDC, STRK, 500_000_000n, 10);
    const simulation = await simulateCalls(ea, calls, { feeMode: 'sponsored' });
    expect(simulation.status).toBe('SUCCEEDED');
    await stack.knob('/sandbox/chain/trade', {
      tokenIn: 'USDC',
      tokenOut: 'STRK',
      amount: '100000',
      when: 'before-next-execution',
    });
    const before = await balances();
    const error = await failure(executePrepared(ea, simulation.prepared));
    expect(error.code).toBe(ErrorCode.TRANSACTION_REVERTED);
    expect(await balances()).toEqual(before);
  });

  it('an undeployed account simulates with its deployment first, then executes what it simulated', async () => {
    const erin = await stack.signIn('erin@example.com');
    const fresh = stack.account(erin);
    const to = `0x${'0'.repeat(60)}beef`;
    const calls = [
      { contractAddress: STRK.address, entrypoint: 'transfer', calldata: [to, '0x5', '0x0'] },
    ];
    const simulation = await simulateCalls(fresh, calls, { feeMode: 'sponsored' });
    expect(simulation.prepared.kind).toBe('deploy_and_invoke');
    expect(simulation.status).toBe('SUCCEEDED');
    expect(simulation.balanceChanges).toEqual([
      { token: STRK.address, symbol: 'STRK', decimals: 18, amount: -5n },
    ]);
    expect(simulation.networkFee).toBeGreaterThan(0n);
    const receipt = await executePrepared(fresh, simulation.prepared);
    expect(receipt.deployed).toBe(true);
    expect(receipt.balanceChanges).toEqual(simulation.balanceChanges);
  });

  it('a swap without the approval is refused at the paymaster build on the allowance; nothing is sent', async () => {
    const { calls } = await swapCalls(USDC, ETH, 1_000_000n);
    const error = await failure(executeCalls(ea, calls.slice(1), { feeMode: 'sponsored' }));
    expect(error.code).toBe(ErrorCode.PAYMASTER_REFUSED);
    expect(error.message).toContain('ERC20: insufficient allowance');
  });

  it.each(['destination', 'min-received', 'token'] as const)(
    'tampered aggregator calldata (%s) is refused by the client before anything is built',
    async (kind) => {
      const response = await postJson(
        `${stack.handle.info.aggregatorUrl}/sandbox/tamper-calldata`,
        { kind },
      );
      expect(response.status).toBe(200);
      const error = await failure(
        aggregator.getCalldata({
          amount: 1_000_000n,
          tokenIn: USDC.address,
          tokenOut: ETH.address,
          slippageBps: 100,
          destination: ea.address,
        }),
      );
      expect(error.code).toBe(ErrorCode.CALLDATA_MISMATCH);
      expect(error.details?.field).toBe(
        { destination: 'destination', 'min-received': 'min_received', token: 'token_out' }[kind],
      );
      // one answer only: the next is honest again
      await expect(
        aggregator.getCalldata({
          amount: 1_000_000n,
          tokenIn: USDC.address,
          tokenOut: ETH.address,
          slippageBps: 100,
          destination: ea.address,
        }),
      ).resolves.toBeDefined();
    },
  );

  it('the router refuses calldata whose pools or tokens do not match, before moving anything', async () => {
    const { calldata } = await aggregator.getCalldata({
      amount: 1_000_000n,
      tokenIn: USDC.address,
      tokenOut: ETH.address,
      slippageBps: 100,
      destination: ea.address,
    });
    const wrongPool = [...calldata];
    wrongPool[5] = '0x1234';
    const before = await balances();
    const error = await failure(
      executeCalls(
        ea,
        [
          buildApproveCall(USDC, ROUTER_ADDRESS, 1_000_000n),
          { contractAddress: ROUTER_ADDRESS, entrypoint: 'swap', calldata: wrongPool },
        ],
        { feeMode: 'sponsored' },
      ),
    );
    expect(error.message).toContain('no pool at 0x1234');
    expect(await balances()).toEqual(before);
  });
});
