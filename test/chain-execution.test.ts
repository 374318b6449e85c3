/**
 * The execution library (cli/core/chain) against the whole sandbox stack in this process, over
 * real sockets: auth server → paymaster relay → chain emulator, signatures through /sign/hash.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  buildTransferCall,
  createChainReader,
  type ExecutionAccount,
  executeCalls,
  isDeployed,
  prepareExecution,
  readBalances,
} from '../cli/core/chain/index.js';
import { ErrorCode } from '../shared/errors.js';
import { resolveToken, type Token } from '../shared/tokens.js';
import { FAUCET } from '../sandbox/chain/chain.js';
import { parseAmount } from '../shared/amount.js';
import { type SandboxStack, type Session, startSandboxStack } from './helpers/sandbox-session.js';
import { failure } from './helpers/failure.js';

const STRK = resolveToken('mainnet', 'STRK');
const USDC = resolveToken('mainnet', 'USDC');
const ONE_AND_A_HALF = 1_500_000_000_000_000_000n;

let stack: SandboxStack;
let alice: Session;
let ea: ExecutionAccount;

const randomAddress = (): string => `0x0${randomBytes(31).toString('hex')}`;

async function balanceOf(address: string, token: Token): Promise<bigint> {
  const reader = createChainReader({ address, rpcUrl: stack.handle.info.rpcUrl });
  const [entry] = await readBalances(reader, { tokens: [token] });
  return entry?.balance ?? -1n;
}

async function allBalances(account: ExecutionAccount): Promise<Map<string, bigint>> {
  return new Map((await readBalances(account)).map((b) => [b.token.symbol, b.balance]));
}

beforeAll(async () => {
  stack = await startSandboxStack();
  alice = await stack.signIn('alice@example.com');
  ea = stack.account(alice);
  // alice's account is deployed before any test, so each finds it the same whatever ran first
  // (the deployment by a first transaction is shown on a wallet of its own)
  const deployed = await executeCalls(ea, [buildTransferCall(STRK, randomAddress(), 1n)], {
    feeMode: 'sponsored',
  });
  expect(deployed.deployed).toBe(true);
});

afterAll(async () => {
  await stack?.close();
});

describe('faucet and reads', () => {
  it('a new wallet holds exactly the faucet amounts, and is not deployed yet', async () => {
    const fresh = stack.account(await stack.signIn('faucet@example.com'));
    const balances = await allBalances(fresh);
    for (const { symbol, amount } of FAUCET) {
      const token = resolveToken('mainnet', symbol);
      expect(balances.get(symbol), symbol).toBe(parseAmount(amount, token.decimals));
    }
    expect(balances.get('USDC.e')).toBe(0n);
    expect(balances.get('STRK')).toBe(20_000n * 10n ** 18n);
    expect(balances.get('WBTC')).toBe(50_000_000n);
    expect(await isDeployed(fresh)).toBe(false);
  });
});

describe('transfers', () => {
  it('sponsored: the first transaction deploys the account and moves exactly 1.5 STRK', async () => {
    const ea = stack.account(await stack.signIn('first@example.com'));
    const to = randomAddress();
    const before = await balanceOf(ea.address, STRK);
    const stages: string[] = [];
    const receipt = await executeCalls(ea, [buildTransferCall(STRK, to, ONE_AND_A_HALF)], {
      feeMode: 'sponsored',
      onProgress: (e) => stages.push(e.stage),
    });
    expect(receipt.status).toBe('SUCCEEDED');
    expect(receipt.deployed).toBe(true);
    expect(receipt.feePaid).toBeNull();
    expect(receipt.balanceChanges).toEqual([
      { token: STRK.address, symbol: 'STRK', decimals: 18, amount: -ONE_AND_A_HALF },
    ]);
    expect(await balanceOf(ea.address, STRK)).toBe(before - ONE_AND_A_HALF);
    expect(await balanceOf(to, STRK)).toBe(ONE_AND_A_HALF);
    expect(await isDeployed(ea)).toBe(true);
    expect(stages).toEqual([
      'checking-account',
      'building',
      'built',
      'signing',
      'submitting',
      'submitted',
      ...stages.filter((s) => s === 'confirming'),
      'confirmed',
    ]);
  });

  it('default mode paying STRK: a deployed account’s transaction is a plain invoke; the sender pays 1.5 STRK + exactly the receipt fee', async () => {
    const to = randomAddress();
    const before = await balanceOf(ea.address, STRK);
    const prepared = await prepareExecution(ea, [buildTransferCall(STRK, to, ONE_AND_A_HALF)], {
      feeMode: { gasToken: STRK.address },
    });
    expect(prepared.kind).toBe('invoke');
    const receipt = await executeCalls(ea, [buildTransferCall(STRK, to, ONE_AND_A_HALF)], {
      feeMode: { gasToken: STRK.address },
    });
    expect(receipt.deployed).toBe(false);
    expect(receipt.feePaid?.token).toBe(STRK.address);
    const fee = receipt.feePaid?.amount ?? 0n;
    expect(fee).toBeGreaterThan(0n);
    // paying in STRK, what the paymaster keeps is the network fee of the transaction
    expect(fee).toBe(receipt.actualFee.amount);
    expect(prepared.fee.mode === 'default' && fee <= prepared.fee.maxInGasToken).toBe(true);
    expect(await balanceOf(ea.address, STRK)).toBe(before - ONE_AND_A_HALF - fee);
    expect(await balanceOf(to, STRK)).toBe(ONE_AND_A_HALF);
    // the fee left as the signed maximum and came partly back: the events say exactly that
    const feeEvents = receipt.transfers.filter(
      (t) =>
        BigInt(t.to) === BigInt(prepared.feeRecipient ?? 0) ||
        BigInt(t.from) === BigInt(prepared.feeRecipient ?? 0),
    );
    expect(
      feeEvents
        .map((t) => (BigInt(t.from) === BigInt(ea.address) ? t.amount : -t.amount))
        .reduce((a, b) => a + b, 0n),
    ).toBe(fee);
  });

  it('default mode paying USDC: the fee is charged in USDC, the STRK transfer is exact', async () => {
    const to = randomAddress();
    const strkBefore = await balanceOf(ea.address, STRK);
    const usdcBefore = await balanceOf(ea.address, USDC);
    const receipt = await executeCalls(ea, [buildTransferCall(STRK, to, ONE_AND_A_HALF)], {
      feeMode: { gasToken: USDC.address },
    });
    const fee = receipt.feePaid?.amount ?? 0n;
    expect(receipt.feePaid?.token).toBe(USDC.address);
    expect(fee).toBeGreaterThan(0n);
    expect(await balanceOf(ea.address, STRK)).toBe(strkBefore - ONE_AND_A_HALF);
    expect(await balanceOf(ea.address, USDC)).toBe(usdcBefore - fee);
  });
});

describe('refusals', () => {
  it('tampered typed data is refused by the client before signing: the signer is never called', async () => {
    await stack.knob('/sandbox/paymaster/tamper', { mode: 'calldata' });
    const signed = ea.signer.signatures;
    const before = await allBalances(ea);
    const error = await failure(
      executeCalls(ea, [buildTransferCall(STRK, randomAddress(), ONE_AND_A_HALF)], {
        feeMode: { gasToken: STRK.address },
      }),
    );
    expect(error.code).toBe(ErrorCode.TAMPERED_TRANSACTION);
    expect(error.message).toMatch(/not the one asked for.*nothing was signed/);
    expect(ea.signer.signatures).toBe(signed);
    expect(await allBalances(ea)).toEqual(before);
  });

  it.each(['extra-call', 'fee-amount', 'chain-id', 'selector-text'] as const)(
    'tampering (%s) is refused before signing too, in printable words',
    async (mode) => {
      await stack.knob('/sandbox/paymaster/tamper', { mode });
      const signed = ea.signer.signatures;
      const error = await failure(
        prepareExecution(ea, [buildTransferCall(STRK, randomAddress(), 1n)], {
          feeMode: { gasToken: STRK.address },
        }),
      );
      expect(error.code).toBe(ErrorCode.TAMPERED_TRANSACTION);
      // the paymaster's values quoted in the refusal reach no terminal as escapes
      // eslint-disable-next-line no-control-regex -- the characters the test looks for
      expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(ea.signer.signatures).toBe(signed);
    },
  );

  it('a bad signature is refused by the paymaster: SIGNATURE_REFUSED, nothing changes', async () => {
    const good = stack.signHash(alice);
    const forger = stack.account(alice, {
      // a real signature, but of another hash
      signHash: async (hash, signal) =>
        good(`0x${(BigInt(hash) ^ 1n).toString(16).padStart(64, '0')}`, signal),
    });
    const before = await allBalances(ea);
    const error = await failure(
      executeCalls(forger, [buildTransferCall(STRK, randomAddress(), ONE_AND_A_HALF)], {
        feeMode: 'sponsored',
      }),
    );
    expect(error.code).toBe(ErrorCode.SIGNATURE_REFUSED);
    expect(error.details).toMatchObject({ paymasterCode: 153 });
    expect(await allBalances(ea)).toEqual(before);
  });

  it('a forced revert leaves every balance unchanged (no fee either) and says REVERTED with the reason', async () => {
    await stack.knob('/sandbox/chain/revert-next', { reason: 'sandbox test: out of luck' });
    const to = randomAddress();
    const before = await allBalances(ea);
    const error = await failure(
      executeCalls(ea, [buildTransferCall(STRK, to, ONE_AND_A_HALF)], {
        feeMode: { gasToken: STRK.address },
      }),
    );
    expect(error.code).toBe(ErrorCode.TRANSACTION_REVERTED);
    expect(error.message).toContain('sandbox test: out of luck');
    const receipt = error.details?.receipt as {
      status: string;
      revertReason: string;
      balanceChanges: unknown[];
      feePaid: { amount: string };
    };
    expect(receipt.status).toBe('REVERTED');
    expect(receipt.revertReason).toContain('sandbox test: out of luck');
    expect(receipt.balanceChanges).toEqual([]);
    expect(receipt.feePaid.amount).toBe('0');
    expect(await allBalances(ea)).toEqual(before);
    expect(await balanceOf(to, STRK)).toBe(0n);
  });

  it('a transfer of more than the balance is refused at the paymaster build with the token reason (it simulates, as the real one does); nothing changes', async () => {
    const before = await allBalances(ea);
    const error = await failure(
      executeCalls(ea, [buildTransferCall(USDC, randomAddress(), 10n ** 30n)], {
        feeMode: 'sponsored',
      }),
    );
    expect(error.code).toBe(ErrorCode.PAYMASTER_REFUSED);
    expect(error.details?.paymasterCode).toBe(156);
    expect(error.message).toContain('ERC20: insufficient balance');
    expect(await allBalances(ea)).toEqual(before);
  });

  it('the fee moved between build and execute: the paymaster answers 154 → FEE_ABOVE_MAX, nothing changes', async () => {
    // three times the L2 gas price, applied right after the next build
    await stack.knob('/sandbox/chain/gas-price', {
      l2GasPrice: '30000000000',
      afterNextBuild: true,
    });
    const before = await allBalances(ea);
    const error = await failure(
      executeCalls(ea, [buildTransferCall(STRK, randomAddress(), ONE_AND_A_HALF)], {
        feeMode: { gasToken: STRK.address },
      }),
    );
    expect(error.code).toBe(ErrorCode.FEE_ABOVE_MAX);
    expect(error.details).toMatchObject({ paymasterCode: 154 });
    expect(await allBalances(ea)).toEqual(before);
    await stack.knob('/sandbox/chain/gas-price', { l2GasPrice: '10000000000' });
  });

  // 0 too: starknet.js holds only a cap that is not 0, the client holds every one
  it.each([1n, 0n])(
    'a suggested maximum above what the user accepted (%s) is refused before signing',
    async (max) => {
      const signed = ea.signer.signatures;
      const error = await failure(
        executeCalls(ea, [buildTransferCall(STRK, randomAddress(), 1n)], {
          feeMode: { gasToken: STRK.address },
          maxFeeInGasToken: max,
        }),
      );
      expect(error.code).toBe(ErrorCode.FEE_ABOVE_MAX);
      expect(ea.signer.signatures).toBe(signed);
    },
  );

  it('an unsupported gas token is the paymaster refusal 151', async () => {
    const error = await failure(
      prepareExecution(ea, [buildTransferCall(STRK, randomAddress(), 1n)], {
        feeMode: { gasToken: '0x1234' },
      }),
    );
    expect(error.code).toBe(ErrorCode.PAYMASTER_REFUSED);
    expect(error.details).toMatchObject({ paymasterCode: 151 });
  });
});

describe('transport and session failures', () => {
  it('a session token the server refuses is UNAUTHORIZED (our error body, not "undefined: undefined")', async () => {
    const stale = stack.account(alice, { headers: { authorization: 'Bearer not-a-token' } });
    const error = await failure(
      prepareExecution(stale, [buildTransferCall(STRK, randomAddress(), 1n)], {
        feeMode: 'sponsored',
      }),
    );
    expect(error.code).toBe(ErrorCode.UNAUTHORIZED);
  });

  it('a chain that is down is CHAIN_UNREACHABLE', async () => {
    await stack.knob('/sandbox/faults', { failNext: { count: 1_000, status: 503 } });
    try {
      expect((await failure(readBalances(ea))).code).toBe(ErrorCode.CHAIN_UNREACHABLE);
      expect((await failure(isDeployed(ea))).code).toBe(ErrorCode.CHAIN_UNREACHABLE);
    } finally {
      await stack.knob('/sandbox/faults', { failNext: { count: 0 } });
    }
    const closed = createChainReader({
      address: ea.address,
      rpcUrl: 'http://127.0.0.1:9/rpc',
      requestTimeoutMs: 2_000,
    });
    expect((await failure(readBalances(closed))).code).toBe(ErrorCode.CHAIN_UNREACHABLE);
  });

  it('a slow chain and a cancelled call: CANCELLED at once, the request aborted', async () => {
    await stack.knob('/sandbox/faults', { latencyMs: 3_000 });
    try {
      const controller = new AbortController();
      // the chain answers after 3 s: CANCELLED (not balances) proves the abort cut the request
      const before = stack.handle.chain.faults.requests;
      const pending = readBalances(ea, { signal: controller.signal });
      await vi.waitFor(() => expect(stack.handle.chain.faults.requests).toBeGreaterThan(before), {
        timeout: 10_000,
        interval: 5,
      });
      controller.abort();
      const error = await failure(pending);
      expect(error.code).toBe(ErrorCode.CANCELLED);
    } finally {
      await stack.knob('/sandbox/faults', { latencyMs: 0 });
    }
  });

  it('a slow chain beyond the request timeout is CHAIN_UNREACHABLE', async () => {
    await stack.knob('/sandbox/faults', { latencyMs: 2_000 });
    try {
      const impatient = createChainReader({
        address: ea.address,
        rpcUrl: stack.handle.info.rpcUrl,
        requestTimeoutMs: 200,
      });
      const error = await failure(readBalances(impatient, { tokens: [STRK] }));
      expect(error.code).toBe(ErrorCode.CHAIN_UNREACHABLE);
      expect(error.message).toMatch(/did not answer within 200 ms/);
    } finally {
      await stack.knob('/sandbox/faults', { latencyMs: 0 });
    }
  });
});
