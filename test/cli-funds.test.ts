/**
 * Issue 7 end to end, through whole processes on loopback: a sandbox in its own process, then
 * the built bin: login → verify → `balance` shows the faucet amounts exactly → `send` without
 * --yes shows the plan and signs nothing (exit 1 CONFIRMATION_REQUIRED) → `send 1.5 STRK <bob>
 * --yes --json` → both balances changed by exactly 1.5 STRK (+ the receipt's fee when gas is
 * not sponsored). Bob signs in from his own data folder against the same sandbox.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { FAUCET } from '../sandbox/chain/chain.js';
import { parseAmount } from '../shared/amount.js';
import { resolveToken } from '../shared/tokens.js';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess, signIn, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';
import { tempHome } from './helpers/process.js';

interface Amount {
  symbol: string;
  amount: string;
  baseUnits: string;
}

const STRK = resolveToken('mainnet', 'STRK');
const ONE_AND_A_HALF = parseAmount('1.5', STRK.decimals);

describe('balance and send through the sandbox (whole processes)', () => {
  let users: TwoUsers;
  let bobAddress: string;

  async function strkOf(home: string): Promise<bigint> {
    const r = await cliInProcess(home, ['balance', 'STRK', '--sandbox', '--json']);
    expect(r.code).toBe(0);
    const [strk] = r.doc.balances as Amount[];
    return BigInt(strk?.baseUnits ?? '-1');
  }

  beforeAll(async () => {
    users = await startTwoUsers();
    bobAddress = users.bobAddress;
  });
  const homes: Array<ReturnType<typeof tempHome>> = [];
  /** A user of the same sandbox with a wallet nothing has touched yet (not deployed). */
  async function newUser(email: string): Promise<{ dir: string }> {
    const home = tempHome();
    homes.push(home);
    copyFileSync(join(users.aliceHome, 'sandbox.json'), join(home.dir, 'sandbox.json'));
    await signIn(home.dir, email);
    return home;
  }
  afterAll(async () => {
    await users?.close();
    homes.forEach((home) => home.cleanup());
  });

  it('balance shows exactly the faucet amounts of a new wallet', async () => {
    // a wallet of its own: alice's changes with every send the other tests make
    const home = await newUser('newcomer@example.com');
    const r = await cliInProcess(home.dir, ['balance', '--sandbox', '--json']);
    expect(r.code).toBe(0);
    expect(r.doc).toMatchObject({
      email: 'newcomer@example.com',
      network: 'sandbox',
      sandbox: true,
    });
    const held = new Map((r.doc.balances as Amount[]).map((b) => [b.symbol, b]));
    for (const { symbol, amount } of FAUCET) {
      const token = resolveToken('mainnet', symbol);
      expect(held.get(symbol)?.baseUnits, symbol).toBe(
        parseAmount(amount, token.decimals).toString(),
      );
      expect(held.get(symbol)?.amount, symbol).toBe(amount);
    }
    expect(held.get('USDC.e')?.baseUnits).toBe('0');
    const human = await cliInProcess(home.dir, ['balance', 'strk', 'WBTC', '--sandbox']);
    expect(human.stdout).toMatch(/^ {2}STRK\s+20000$/m);
    expect(human.stdout).toMatch(/^ {2}WBTC\s+0\.5$/m);
  });

  it('send without --yes: the plan, nothing signed, exit 1 CONFIRMATION_REQUIRED', async () => {
    // a wallet of its own, not yet deployed, whatever the other tests sent before
    const sender = await newUser('planner@example.com');
    const before = await strkOf(sender.dir);
    const r = await cliInProcess(sender.dir, [
      'send',
      '1.5',
      'STRK',
      bobAddress,
      '--sandbox',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.doc.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(r.doc.error?.details?.plan).toMatchObject({
      kind: 'send',
      sends: [
        {
          to: bobAddress,
          amount: { symbol: 'STRK', amount: '1.5', baseUnits: ONE_AND_A_HALF.toString() },
        },
      ],
      deploysAccount: true,
      simulation: {
        status: 'ok',
        balanceChanges: [
          { token: { symbol: 'STRK' }, change: { baseUnits: (-ONE_AND_A_HALF).toString() } },
        ],
      },
    });
    const human = await cliInProcess(sender.dir, ['send', '1.5', 'STRK', bobAddress, '--sandbox']);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/Send on sandbox: send 1\.5 STRK to 0x/);
    expect(human.stdout).toMatch(/simulation: ok: -1\.5 STRK/);
    expect(human.stderr).toMatch(/--yes .*\(CONFIRMATION_REQUIRED\)/);
    expect(await strkOf(sender.dir)).toBe(before);
  });

  it('send 1.5 STRK --yes: both balances change by exactly 1.5 STRK (+ the receipt fee if gas was not sponsored)', async () => {
    const aliceBefore = await strkOf(users.aliceHome);
    const bobBefore = await strkOf(users.bobHome);
    const r = await cliInProcess(users.aliceHome, [
      'send',
      '1.5',
      'STRK',
      bobAddress,
      '--yes',
      '--sandbox',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const receipt = r.doc.transaction as {
      status: string;
      hash: string;
      feePaid: Amount | null;
      balanceChanges: Amount[];
    };
    expect(receipt.status).toBe('SUCCEEDED');
    expect(receipt.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(receipt.balanceChanges).toEqual([
      expect.objectContaining({ symbol: 'STRK', baseUnits: (-ONE_AND_A_HALF).toString() }),
    ]);
    const fee = receipt.feePaid?.symbol === 'STRK' ? BigInt(receipt.feePaid.baseUnits) : 0n;
    expect(await strkOf(users.aliceHome)).toBe(aliceBefore - ONE_AND_A_HALF - fee);
    expect(await strkOf(users.bobHome)).toBe(bobBefore + ONE_AND_A_HALF);
  });

  it('paying gas in STRK: the sender pays exactly 1.5 STRK + the receipt fee; the recipient gets exactly 1.5', async () => {
    const aliceBefore = await strkOf(users.aliceHome);
    const bobBefore = await strkOf(users.bobHome);
    const r = await cliInProcess(users.aliceHome, [
      'send',
      '1.5',
      'STRK',
      bobAddress,
      '--gas-token',
      'STRK',
      '--yes',
      '--sandbox',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const gas = r.doc.gas as { mode: string; maxFee: Amount };
    const receipt = r.doc.transaction as { feePaid: Amount };
    expect(gas.mode).toBe('default');
    expect(receipt.feePaid.symbol).toBe('STRK');
    const fee = BigInt(receipt.feePaid.baseUnits);
    expect(fee).toBeGreaterThan(0n);
    expect(fee <= BigInt(gas.maxFee.baseUnits)).toBe(true);
    expect(await strkOf(users.aliceHome)).toBe(aliceBefore - ONE_AND_A_HALF - fee);
    expect(await strkOf(users.bobHome)).toBe(bobBefore + ONE_AND_A_HALF);
    const human = await cliInProcess(users.aliceHome, [
      'send',
      '0.25',
      'STRK',
      bobAddress,
      '--gas-token',
      'STRK',
      '--yes',
      '--sandbox',
    ]);
    expect(human.stdout).toMatch(/^Done: transaction 0x[0-9a-f]{64} succeeded/m);
    expect(human.stdout).toMatch(/gas paid: [0-9.]+ STRK/);
  });

  it('refusals: exit 1 with their code, and nothing signed', async () => {
    const cases = [
      { args: ['send', '1000000', 'STRK', bobAddress, '--yes'], code: 'INSUFFICIENT_BALANCE' },
      { args: ['send', '1', 'STRK', 'bob@example.com', '--yes'], code: 'INVALID_ADDRESS' },
      { args: ['send', '-1', 'STRK', bobAddress, '--yes'], code: 'INVALID_AMOUNT' },
      { args: ['send', '0.0000001', 'USDC', bobAddress, '--yes'], code: 'INVALID_AMOUNT' },
      { args: ['send', '1', 'DOGE', bobAddress, '--yes'], code: 'UNKNOWN_TOKEN' },
      { args: ['balance', 'DOGE'], code: 'UNKNOWN_TOKEN' },
    ];
    const before = await strkOf(users.aliceHome);
    for (const { args, code } of cases) {
      const r = await cliInProcess(users.aliceHome, [...args, '--sandbox', '--json']);
      expect({ args, exit: r.code, code: r.doc.error?.code }).toEqual({ args, exit: 1, code });
    }
    expect(await strkOf(users.aliceHome)).toBe(before);
  });

  it('send and a one-transfer batch are one action: they refuse alike (a token contract, the router, zero, malformed, yourself) and nothing is signed', async () => {
    const me = (
      (await cliInProcess(users.aliceHome, ['wallet', '--sandbox', '--json'])).doc.wallet as {
        address: string;
      }
    ).address;
    const router = '0x00f6f4cf62e3c010e0ac2451cc7807b5eec19a40b0faacd00cca3914280fdf5a';
    const before = await strkOf(users.aliceHome);
    for (const [to, code] of [
      [STRK.address, 'INVALID_RECIPIENT'],
      [resolveToken('mainnet', 'USDC').address, 'INVALID_RECIPIENT'],
      [router, 'INVALID_RECIPIENT'],
      [me, 'INVALID_RECIPIENT'],
      ['0x0', 'INVALID_ADDRESS'],
      ['0xnothex', 'INVALID_ADDRESS'],
    ] as const) {
      const send = await cliInProcess(users.aliceHome, [
        'send',
        '1',
        'STRK',
        to,
        '--yes',
        '--sandbox',
        '--json',
      ]);
      const batch = await cliInProcess(users.aliceHome, [
        'batch',
        '--send',
        `1 STRK>${to}`,
        '--yes',
        '--sandbox',
        '--json',
      ]);
      expect({
        to,
        send: [send.code, send.doc.error?.code],
        batch: [batch.code, batch.doc.error?.code],
      }).toEqual({ to, send: [1, code], batch: [1, code] });
      expect(send.doc.error?.message).toBe(batch.doc.error?.message);
    }
    expect(await strkOf(users.aliceHome)).toBe(before);
    // and succeed alike: the same plan document, kind apart
    const send = await cliInProcess(users.aliceHome, [
      'send',
      '0.5',
      'STRK',
      bobAddress,
      '--sandbox',
      '--json',
    ]);
    const batch = await cliInProcess(users.aliceHome, [
      'batch',
      '--send',
      `0.5 STRK>${bobAddress}`,
      '--sandbox',
      '--json',
    ]);
    const shape = ({
      headline,
      swaps,
      sends,
      calls,
      simulation,
      deploysAccount,
      warnings,
    }: Record<string, unknown>) => ({
      headline,
      swaps,
      sends,
      calls,
      simulation,
      deploysAccount,
      warnings,
    });
    expect(shape(send.doc.error?.details?.plan as Record<string, unknown>)).toEqual(
      shape(batch.doc.error?.details?.plan as Record<string, unknown>),
    );
  });

  it('to yourself: refused; without a session: exit 4 AUTH_REQUIRED', async () => {
    const me = (await cliInProcess(users.aliceHome, ['wallet', '--sandbox', '--json'])).doc
      .wallet as {
      address: string;
    };
    const self = await cliInProcess(users.aliceHome, [
      'send',
      '1',
      'STRK',
      me.address,
      '--yes',
      '--sandbox',
      '--json',
    ]);
    expect(self.doc.error?.code).toBe('INVALID_RECIPIENT');
    const nobody = tempHome();
    try {
      copyFileSync(join(users.aliceHome, 'sandbox.json'), join(nobody.dir, 'sandbox.json'));
      for (const args of [['balance'], ['send', '1', 'STRK', bobAddress, '--yes']]) {
        const r = await cliInProcess(nobody.dir, [...args, '--sandbox', '--json']);
        expect(r.code).toBe(4);
        expect(r.doc.error?.code).toBe('AUTH_REQUIRED');
      }
    } finally {
      nobody.cleanup();
    }
  });
});
