/**
 * The action pipeline (cli/core/actions/pipeline.ts) against the whole sandbox stack over real sockets:
 * aggregator emulator → plan and checks → paymaster build → chain simulation → signature through
 * our auth server → chain execution → receipt → history. Every refusal comes from an emulator
 * knob, and leaves every balance as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBalances } from '../cli/core/chain/index.js';
import type { ExecutionAccount } from '../cli/core/chain/account.js';
import { openHistory } from '../cli/core/history.js';
import type { CallOptions, ProgressEvent } from '../cli/core/call.js';
import {
  type ActionContext,
  executePipeline as executeAction,
  type PairSpec,
  planPipeline as planAction,
  type PlanOptions,
  type TransferSpec,
} from '../cli/core/actions/pipeline.js';

// the pipeline's one entry, by kind
const planTrade = (swap: PairSpec, options: PlanOptions, ctx: ActionContext, call?: CallOptions) =>
  planAction({ kind: 'trade', swap }, options, ctx, call);
const planMultiSwap = (
  swaps: PairSpec[],
  options: PlanOptions,
  ctx: ActionContext,
  call?: CallOptions,
) => planAction({ kind: 'multi-swap', swaps }, options, ctx, call);
const planBatch = (
  swaps: PairSpec[],
  transfers: TransferSpec[],
  options: PlanOptions,
  ctx: ActionContext,
  call?: CallOptions,
) => planAction({ kind: 'batch', swaps, transfers }, options, ctx, call);
const executePlan = executeAction;
import { createAggregatorClient } from '../cli/clients/aggregator.js';
import { ErrorCode } from '../shared/errors.js';
import { resolveToken, type Token } from '../shared/tokens.js';
import { tempHome } from './helpers/process.js';
import { failure } from './helpers/failure.js';
import {
  postJson,
  routerAllowance,
  type SandboxStack,
  startSandboxStack,
} from './helpers/sandbox-session.js';

const ETH = resolveToken('mainnet', 'ETH');
const USDC = resolveToken('mainnet', 'USDC');
const STRK = resolveToken('mainnet', 'STRK');

let stack: SandboxStack;
const home = tempHome();
const history = openHistory(home.dir);
/** Two faucet-funded accounts (sign-in is rate-limited per IP, so the tests share them). */
let alice: ExecutionAccount;
let bob: ExecutionAccount;

beforeAll(async () => {
  stack = await startSandboxStack();
  alice = stack.account(await stack.signIn('alice@example.com'));
  bob = stack.account(await stack.signIn('bob@example.com'));
});

afterAll(async () => {
  await stack?.close();
  home.cleanup();
});

/** The core's context for alice (or `ea`). */
function user(
  overrides: Partial<ActionContext> = {},
  ea: ExecutionAccount = alice,
): { ctx: ActionContext; ea: ExecutionAccount; signed: number } {
  const ctx: ActionContext = {
    aggregator: createAggregatorClient({
      baseUrl: stack.handle.info.aggregatorUrl,
      network: 'mainnet',
      retries: 0,
    }),
    account: ea,
    sandbox: true,
    fee: { gasToken: STRK, forced: false },
    defaultSlippageBps: 100,
    history,
    ...overrides,
  };
  return { ctx, ea, signed: ea.signer.signatures };
}

async function balances(ea: ExecutionAccount): Promise<Record<string, bigint>> {
  return Object.fromEntries((await readBalances(ea)).map((b) => [b.token.symbol, b.balance]));
}

const allowance = (ea: ExecutionAccount, token: Token): Promise<bigint> =>
  routerAllowance(stack.handle.info.rpcUrl, ea.address, token.address);

const aggregatorKnob = (body: unknown) =>
  postJson(`${stack.handle.info.aggregatorUrl}/sandbox/tamper-calldata`, body);

describe('trade', () => {
  it('1 ETH → USDC: the plan shows the simulated changes; executed, ETH falls by exactly 1 and USDC rises by the transfer, at least the minimum; the next quote moved', async () => {
    const { ctx, ea } = user();
    const before = await balances(ea);
    const progress: string[] = [];
    const planned = await planTrade({ amount: '1', from: 'ETH', to: 'USDC' }, {}, ctx, {
      onProgress: (p: ProgressEvent) => progress.push(p.kind),
    });
    const doc = planned.document;
    expect(doc).toMatchObject({
      kind: 'trade',
      sandbox: true,
      gas: { mode: 'sponsored' },
      priceImpact: { level: 'ok' },
      warnings: [],
    });
    expect(doc.calls.map((c) => c.entrypoint)).toEqual(['approve', 'swap']);
    expect(doc.calls[0]?.description).toBe('approve 1 ETH to the router 0x00f6…df5a');
    const minimum = BigInt(doc.swaps[0]?.minimumReceived.baseUnits ?? '0');
    expect(doc.simulation).toMatchObject({
      status: 'ok',
      balanceChanges: [
        { token: { symbol: 'ETH' }, change: { baseUnits: '-1000000000000000000' } },
        { token: { symbol: 'USDC' } },
      ],
    });
    expect(progress).toEqual(['quoting', 'checking-account', 'building', 'simulating']);
    // nothing happened yet
    expect(await balances(ea)).toEqual(before);

    const result = await executePlan(planned, { onProgress: (p) => progress.push(p.kind) });
    expect(progress.slice(4)).toEqual([
      'signing',
      'submitting',
      'submitted',
      'confirming',
      'confirmed',
    ]);
    const received = BigInt(result.transaction.received[0]?.baseUnits ?? '0');
    expect(received).toBeGreaterThanOrEqual(minimum);
    expect(result.transaction.received[0]).toMatchObject({
      symbol: 'USDC',
      minimum: { baseUnits: minimum.toString() },
    });
    const after = await balances(ea);
    expect(after.ETH).toBe((before.ETH ?? 0n) - 10n ** 18n);
    expect(after.USDC).toBe((before.USDC ?? 0n) + received);
    expect(await allowance(ea, ETH)).toBe(0n);
    // the trade moved the pools: the same quote now gives less
    const next = await planTrade({ amount: '1', from: 'ETH', to: 'USDC' }, {}, ctx);
    expect(BigInt(next.document.swaps[0]?.grossOutput.baseUnits ?? '0')).toBeLessThan(
      BigInt(doc.swaps[0]?.grossOutput.baseUnits ?? '0'),
    );

    const listed = (await history.list()).entries.find((e) => e.hash === result.transaction.hash);
    expect(listed).toMatchObject({ kind: 'trade', status: 'succeeded', sandbox: true });
    expect(listed?.amounts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          direction: 'out',
          symbol: 'ETH',
          baseUnits: (10n ** 18n).toString(),
          basis: 'sent',
        }),
        expect.objectContaining({
          direction: 'in',
          symbol: 'USDC',
          baseUnits: received.toString(),
          basis: 'received',
        }),
      ]),
    );
  });

  it('gas paid in the input token: ETH falls by 1 plus the fee paid, at most the shown maximum', async () => {
    const { ctx, ea } = user({ fee: { gasToken: ETH, forced: true } });
    const before = await balances(ea);
    const planned = await planTrade({ amount: '1', from: 'ETH', to: 'USDC' }, {}, ctx);
    expect(planned.document.gas).toMatchObject({ mode: 'default', token: { symbol: 'ETH' } });
    const max = planned.gas.mode === 'default' ? planned.gas.maxFee : 0n;
    expect(planned.document.spend[0]).toMatchObject({
      token: { symbol: 'ETH' },
      gas: { baseUnits: max.toString() },
      total: { baseUnits: (10n ** 18n + max).toString() },
    });
    const result = await executePlan(planned);
    const fee = BigInt(result.transaction.feePaid?.baseUnits ?? '-1');
    expect(fee).toBeGreaterThan(0n);
    expect(fee).toBeLessThanOrEqual(max);
    expect((await balances(ea)).ETH).toBe((before.ETH ?? 0n) - 10n ** 18n - fee);
  });

  it('a quote older than 30 s is re-fetched before signing; if it still guarantees the confirmed minimum, it executes', async () => {
    let now = Date.now();
    const { ctx } = user({ now: () => now });
    const planned = await planTrade({ amount: '10', from: 'USDC', to: 'STRK' }, {}, ctx);
    now += 31_000;
    const steps: string[] = [];
    const result = await executePlan(planned, { onProgress: (p) => steps.push(p.kind) });
    expect(steps.slice(0, 4)).toEqual(['requoting', 'checking-account', 'building', 'simulating']);
    expect(BigInt(result.transaction.received[0]?.baseUnits ?? '0')).toBeGreaterThanOrEqual(
      BigInt(planned.document.swaps[0]?.minimumReceived.baseUnits ?? '1'),
    );
  });
});

describe('multi-swap', () => {
  it('one output token: one batch route and one batch calldata request, both swaps in one transaction', async () => {
    const { ctx, ea } = user();
    const before = await balances(ea);
    const planned = await planMultiSwap(
      [
        { amount: '100', from: 'USDC', to: 'ETH' },
        { amount: '50', from: 'STRK', to: 'ETH' },
      ],
      {},
      ctx,
    );
    expect(planned.mode).toBe('batch');
    expect(planned.document.calls.map((c) => c.entrypoint)).toEqual([
      'approve',
      'swap',
      'approve',
      'swap',
    ]);
    const result = await executePlan(planned);
    const after = await balances(ea);
    expect(after.USDC).toBe((before.USDC ?? 0n) - 100_000_000n);
    expect(after.STRK).toBe((before.STRK ?? 0n) - 50n * 10n ** 18n);
    const received = BigInt(result.transaction.received[0]?.baseUnits ?? '0');
    expect(received).toBeGreaterThanOrEqual(
      BigInt(result.transaction.received[0]?.minimum.baseUnits ?? '1'),
    );
    expect(after.ETH).toBe((before.ETH ?? 0n) + received);
  });

  it('two swaps from one token to different outputs: parallel quotes; each approve covers exactly its swap, nothing stays approved', async () => {
    const { ctx, ea } = user();
    const before = await balances(ea);
    const planned = await planMultiSwap(
      [
        { amount: '100', from: 'USDC', to: 'ETH' },
        { amount: '50', from: 'USDC', to: 'STRK' },
      ],
      {},
      ctx,
    );
    expect(planned.mode).toBe('parallel');
    expect(planned.document.spend).toMatchObject([
      { token: { symbol: 'USDC' }, total: { baseUnits: '150000000' } },
    ]);
    const result = await executePlan(planned);
    const after = await balances(ea);
    expect(after.USDC).toBe((before.USDC ?? 0n) - 150_000_000n);
    expect(result.transaction.received.map((r) => r.symbol)).toEqual(['ETH', 'STRK']);
    expect(await allowance(ea, USDC)).toBe(0n);
  });

  it('the price moved between the batch route and the batch calldata: QUOTE_CHANGED with both figures (not CALLDATA_MISMATCH), nothing signed', async () => {
    const base = user().ctx.aggregator;
    // the real aggregator, with a third party's trade landing between the two batch requests
    const aggregator = {
      ...base,
      getRouteBatch: async (...args: Parameters<typeof base.getRouteBatch>) => {
        const routes = await base.getRouteBatch(...args);
        await stack.knob('/sandbox/chain/trade', {
          tokenIn: 'STRK',
          tokenOut: 'ETH',
          amount: '500000',
        });
        return routes;
      },
    };
    const { ctx, ea, signed } = user({ aggregator });
    const before = await balances(ea);
    const pairs = [
      { amount: '100', from: 'USDC', to: 'ETH' },
      { amount: '2000', from: 'STRK', to: 'ETH' },
    ];
    const error = await failure(planMultiSwap(pairs, { slippageBps: 50 }, ctx));
    expect(error.code).toBe(ErrorCode.QUOTE_CHANGED);
    const details = error.details as {
      swap: number;
      confirmed: { minimumReceived: { baseUnits: string } };
      new: { minimumReceived: { baseUnits: string } };
    };
    // The third party's STRK → ETH trade may split through STRK → USDC → ETH, depending on what
    // the other tests (in shuffled order) did to the pools, and so move swap 1's price as well:
    // the refusal names the first swap that moved, by its number and its own pair.
    const pair = pairs[details.swap - 1];
    expect(pair).toBeDefined();
    expect(
      error.message.startsWith(`swap ${details.swap} (${pair?.amount} ${pair?.from} → ETH): `),
    ).toBe(true);
    expect(error.message).toMatch(
      /: the price moved while the transaction was being prepared; it now guarantees /,
    );
    expect(BigInt(details.new.minimumReceived.baseUnits)).toBeLessThan(
      BigInt(details.confirmed.minimumReceived.baseUnits),
    );
    expect(ea.signer.signatures).toBe(signed);
    expect(await balances(ea)).toEqual(before);
  });

  it('four pairs → BATCH_LIMIT_EXCEEDED before any request', async () => {
    const { ctx } = user();
    const pair = { amount: '1', from: 'USDC', to: 'ETH' };
    expect((await failure(planMultiSwap([pair, pair, pair, pair], {}, ctx))).code).toBe(
      ErrorCode.BATCH_LIMIT_EXCEEDED,
    );
  });
});

describe('batch', () => {
  it('a swap and a transfer in one transaction', async () => {
    const { ctx, ea } = user();
    const friend = user({}, bob);
    const before = await balances(ea);
    const friendBefore = await balances(friend.ea);
    const planned = await planBatch(
      [{ amount: '1', from: 'ETH', to: 'USDC' }],
      [{ amount: '5', token: 'USDC', to: friend.ea.address }],
      {},
      ctx,
    );
    expect(planned.document.calls.map((c) => c.entrypoint)).toEqual([
      'approve',
      'swap',
      'transfer',
    ]);
    const result = await executePlan(planned);
    const received = BigInt(result.transaction.received[0]?.baseUnits ?? '0');
    const after = await balances(ea);
    expect(after.ETH).toBe((before.ETH ?? 0n) - 10n ** 18n);
    expect(after.USDC).toBe((before.USDC ?? 0n) + received - 5_000_000n);
    expect((await balances(friend.ea)).USDC).toBe((friendBefore.USDC ?? 0n) + 5_000_000n);
    expect((await history.list()).entries[0]).toMatchObject({ kind: 'batch', status: 'succeeded' });
  });

  it('transfers only, and a transfer to a token contract is refused', async () => {
    const { ctx } = user();
    const friend = user({}, bob);
    const planned = await planBatch(
      [],
      [{ amount: '1', token: 'STRK', to: friend.ea.address }],
      {},
      ctx,
    );
    expect(planned.document.calls.map((c) => c.description)).toEqual([
      `transfer 1 STRK to ${friend.ea.address}`,
    ]);
    await executePlan(planned);
    expect(
      (await failure(planBatch([], [{ amount: '1', token: 'STRK', to: USDC.address }], {}, ctx)))
        .code,
    ).toBe(ErrorCode.INVALID_RECIPIENT);
  });
});

describe('refusals leave every balance as it was', () => {
  it.each([
    ['destination', 'destination'],
    ['min-received', 'min_received'],
    ['token', 'token_out'],
  ])('tampered aggregator calldata (%s) → CALLDATA_MISMATCH naming %s', async (kind, field) => {
    const { ctx, ea, signed } = user();
    const before = await balances(ea);
    await aggregatorKnob({ kind });
    const error = await failure(planTrade({ amount: '1', from: 'ETH', to: 'USDC' }, {}, ctx));
    expect(error.code).toBe(ErrorCode.CALLDATA_MISMATCH);
    expect(error.details).toMatchObject({ field });
    expect(ea.signer.signatures).toBe(signed);
    expect(await balances(ea)).toEqual(before);
  });

  it('calldata naming a pool that does not exist passes every static check and is caught by the simulation → SIMULATION_REVERTED', async () => {
    const { ctx, ea, signed } = user();
    await aggregatorKnob({ kind: 'pool' });
    const error = await failure(planTrade({ amount: '1', from: 'ETH', to: 'USDC' }, {}, ctx));
    expect(error.code).toBe(ErrorCode.SIMULATION_REVERTED);
    expect(error.details?.reason).toContain('no pool at 0xdead');
    expect(ea.signer.signatures).toBe(signed);
  });

  it('a price impact above 15 % is refused; allowed, the balance check still refuses what the account does not hold', async () => {
    const { ctx } = user();
    const huge = { amount: '1500', from: 'ETH', to: 'USDC' };
    const impact = await failure(planTrade(huge, {}, ctx));
    expect(impact.code).toBe(ErrorCode.PRICE_IMPACT_TOO_HIGH);
    expect(Number(impact.details?.bps)).toBeGreaterThan(1500);
    const balance = await failure(planTrade(huge, { allowHighImpact: true }, ctx));
    expect(balance.code).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect(balance.details).toMatchObject({
      token: 'ETH',
      needed: (1500n * 10n ** 18n).toString(),
    });
  });

  it('the price moved between the check and the execution: the chain reverts on min_received, nothing changes, history says reverted', async () => {
    const { ctx, ea } = user();
    const planned = await planTrade(
      { amount: '2000', from: 'STRK', to: 'USDC' },
      { slippageBps: 50 },
      ctx,
    );
    const before = await balances(ea);
    await stack.knob('/sandbox/chain/trade', {
      tokenIn: 'STRK',
      tokenOut: 'USDC',
      amount: '500000',
      when: 'before-next-execution',
    });
    const error = await failure(executePlan(planned));
    expect(error.code).toBe(ErrorCode.TRANSACTION_REVERTED);
    expect(await balances(ea)).toEqual(before);
    const hash = String(error.details?.transactionHash);
    expect((await history.list()).entries.find((e) => e.hash === hash)).toMatchObject({
      status: 'reverted',
      revertReason: expect.stringContaining('min_received'),
    });
  });

  it('a stale quote whose re-quote guarantees less than confirmed → QUOTE_CHANGED with both figures, nothing signed', async () => {
    let now = Date.now();
    const { ctx, ea, signed } = user({ now: () => now });
    const planned = await planTrade({ amount: '1000', from: 'USDC', to: 'STRK' }, {}, ctx);
    await stack.knob('/sandbox/chain/trade', {
      tokenIn: 'USDC',
      tokenOut: 'STRK',
      amount: '200000',
    });
    now += 31_000;
    const before = await balances(ea);
    const error = await failure(executePlan(planned));
    expect(error.code).toBe(ErrorCode.QUOTE_CHANGED);
    expect(error.details).toMatchObject({
      swap: 1,
      confirmed: { minimumReceived: planned.document.swaps[0]?.minimumReceived },
      new: { minimumReceived: expect.any(Object) },
    });
    expect(ea.signer.signatures).toBe(signed);
    expect(await balances(ea)).toEqual(before);
  });

  it('the paymaster raised its fee after the build: FEE_ABOVE_MAX at execution, nothing changes', async () => {
    const { ctx, ea } = user({ fee: { gasToken: STRK, forced: true } });
    await stack.knob('/sandbox/chain/gas-price', {
      l2GasPrice: '30000000000',
      afterNextBuild: true,
    });
    try {
      const planned = await planTrade({ amount: '1', from: 'ETH', to: 'USDC' }, {}, ctx);
      const before = await balances(ea);
      const error = await failure(executePlan(planned));
      expect(error.code).toBe(ErrorCode.FEE_ABOVE_MAX);
      expect(await balances(ea)).toEqual(before);
    } finally {
      await stack.knob('/sandbox/chain/gas-price', { l2GasPrice: '10000000000' });
    }
  });

  it('a paymaster build with an extra call is refused before signing (TAMPERED_TRANSACTION)', async () => {
    const { ctx, ea, signed } = user();
    await stack.knob('/sandbox/paymaster/tamper', { mode: 'extra-call' });
    const error = await failure(planTrade({ amount: '1', from: 'ETH', to: 'USDC' }, {}, ctx));
    expect(error.code).toBe(ErrorCode.TAMPERED_TRANSACTION);
    expect(ea.signer.signatures).toBe(signed);
  });
});
