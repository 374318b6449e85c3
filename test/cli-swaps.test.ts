/**
 * Issue 8 end to end, through whole processes on loopback: a sandbox in its own process, then
 * the built bin: login → verify → `trade 1 ETH USDC` shows the plan and signs nothing →
 * `trade … --yes --json` → ETH fell by exactly 1 (plus the gas if ETH paid it), USDC rose by the
 * receipt's transfer, at least the confirmed minimum, and the next quote moved. Multi-swap
 * through both quote paths, a batch of a swap and a transfer, each refusal through an emulator
 * knob with every balance unchanged, and `history` listing all of it.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliInProcess, signIn, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';
import { tempHome } from './helpers/process.js';
import { postJson } from './helpers/sandbox-session.js';

interface Amount {
  symbol: string;
  amount: string;
  baseUnits: string;
}
interface Executed {
  kind: string;
  quoteMode: string;
  swaps: Array<{ grossOutput: Amount; confirmedMinimumReceived: Amount; to: { symbol: string } }>;
  calls: Array<{ entrypoint: string; description: string }>;
  transaction: {
    hash: string;
    status: string;
    received: Array<Amount & { minimum: { amount: string; baseUnits: string } }>;
    feePaid: Amount | null;
  };
}

const ONE_ETH = 10n ** 18n;

describe('trade, multi-swap, batch and history through the sandbox (whole processes)', () => {
  let users: TwoUsers;

  const alice = (args: string[]) => cliInProcess(users.aliceHome, [...args, '--sandbox', '--json']);
  /** the bin itself, for the refusals whose subject is its exit (multi-swap's only spawned test) */
  const aliceBin = (args: string[]) => cli(users.aliceHome, [...args, '--sandbox', '--json']);

  async function balances(home: string): Promise<Record<string, bigint>> {
    const r = await cliInProcess(home, ['balance', '--sandbox', '--json']);
    expect(r.code).toBe(0);
    return Object.fromEntries(
      (r.doc.balances as Amount[]).map((b) => [b.symbol, BigInt(b.baseUnits)]),
    );
  }

  const knob = async (url: string, body: unknown): Promise<void> => {
    const r = await postJson(url, body);
    expect(r.status).toBe(200);
  };

  beforeAll(async () => {
    users = await startTwoUsers();
  });
  afterAll(async () => {
    await users?.close();
  });

  it('trade without --yes: the plan (calls in words, simulation), nothing signed, exit 1 CONFIRMATION_REQUIRED', async () => {
    const before = await balances(users.aliceHome);
    const r = await alice(['trade', '1', 'ETH', 'USDC']);
    expect(r.code).toBe(1);
    expect(r.doc.error?.code).toBe('CONFIRMATION_REQUIRED');
    expect(r.doc.error?.details?.plan).toMatchObject({
      kind: 'trade',
      network: 'sandbox',
      sandbox: true,
      quoteMode: 'single',
      calls: [
        { entrypoint: 'approve', description: 'approve 1 ETH to the router 0x00f6…df5a' },
        { entrypoint: 'swap' },
      ],
      simulation: {
        status: 'ok',
        balanceChanges: [
          { token: { symbol: 'ETH' }, change: { baseUnits: (-ONE_ETH).toString() } },
          { token: { symbol: 'USDC' } },
        ],
      },
    });
    const human = await cliInProcess(users.aliceHome, ['trade', '1', 'ETH', 'USDC', '--sandbox']);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/Trade on sandbox: swap 1 ETH → at least/);
    expect(human.stdout).toMatch(/ {2}1\. approve 1 ETH to the router/);
    expect(human.stderr).toMatch(/--yes to sign it \(CONFIRMATION_REQUIRED\)/);
    expect(await balances(users.aliceHome)).toEqual(before);
  });

  it('trade 1 ETH USDC --yes: ETH falls by exactly 1 (+ gas if ETH paid), USDC rises by the receipt transfer, at least the confirmed minimum; the next quote moved', async () => {
    const before = await balances(users.aliceHome);
    const r = await alice(['trade', '1', 'ETH', 'USDC', '--yes']);
    expect(r.code, r.stdout).toBe(0);
    const doc = r.doc as unknown as Executed;
    expect(doc.transaction.status).toBe('SUCCEEDED');
    expect(doc.transaction.hash).toMatch(/^0x[0-9a-f]{64}$/);
    const [received] = doc.transaction.received;
    expect(received?.symbol).toBe('USDC');
    expect(received?.minimum.baseUnits).toBe(doc.swaps[0]?.confirmedMinimumReceived.baseUnits);
    expect(BigInt(received?.baseUnits ?? '0')).toBeGreaterThanOrEqual(
      BigInt(received?.minimum.baseUnits ?? '1'),
    );
    const gas =
      doc.transaction.feePaid?.symbol === 'ETH' ? BigInt(doc.transaction.feePaid.baseUnits) : 0n;
    const after = await balances(users.aliceHome);
    expect(after.ETH).toBe((before.ETH ?? 0n) - ONE_ETH - gas);
    expect(after.USDC).toBe((before.USDC ?? 0n) + BigInt(received?.baseUnits ?? '0'));
    const next = await alice(['quote', '1', 'ETH', 'USDC']);
    const quoted = (next.doc.quotes as Array<{ grossOutput: Amount }>)[0];
    expect(BigInt(quoted?.grossOutput.baseUnits ?? '0')).toBeLessThan(
      BigInt(doc.swaps[0]?.grossOutput.baseUnits ?? '0'),
    );
  });

  it('multi-swap with one output token: batch quotes; with two output tokens: parallel quotes; each in one transaction', async () => {
    const before = await balances(users.aliceHome);
    const batch = await alice(['multi-swap', '--pairs', '100 USDC>ETH, 50 STRK>ETH', '--yes']);
    expect(batch.code, batch.stdout).toBe(0);
    const b = batch.doc as unknown as Executed;
    expect(b).toMatchObject({ kind: 'multi-swap', quoteMode: 'batch' });
    expect(b.calls.map((c) => c.entrypoint)).toEqual(['approve', 'swap', 'approve', 'swap']);
    const parallel = await alice(['multi-swap', '--pairs', '10 USDC>ETH, 10 USDC>STRK', '--yes']);
    expect(parallel.code, parallel.stdout).toBe(0);
    const p = parallel.doc as unknown as Executed;
    expect(p.quoteMode).toBe('parallel');
    const after = await balances(users.aliceHome);
    expect(after.USDC).toBe(
      (before.USDC ?? 0n) -
        120_000_000n +
        BigInt(p.transaction.received.find((x) => x.symbol === 'USDC')?.baseUnits ?? '0'),
    );
    const ethIn =
      BigInt(b.transaction.received[0]?.baseUnits ?? '0') +
      BigInt(p.transaction.received.find((x) => x.symbol === 'ETH')?.baseUnits ?? '0');
    const gasEth = [b, p].reduce(
      (sum, d) =>
        sum +
        (d.transaction.feePaid?.symbol === 'ETH' ? BigInt(d.transaction.feePaid.baseUnits) : 0n),
      0n,
    );
    expect(after.ETH).toBe((before.ETH ?? 0n) + ethIn - gasEth);
  });

  it('batch: a swap and a transfer to bob in one transaction', async () => {
    const bobBefore = await balances(users.bobHome);
    const r = await alice([
      'batch',
      '--swap',
      '0.5 ETH>USDC',
      '--send',
      `5 USDC>${users.bobAddress}`,
      '--yes',
    ]);
    expect(r.code, r.stdout).toBe(0);
    const doc = r.doc as unknown as Executed;
    expect(doc.calls.map((c) => c.entrypoint)).toEqual(['approve', 'swap', 'transfer']);
    expect((await balances(users.bobHome)).USDC).toBe((bobBefore.USDC ?? 0n) + 5_000_000n);
  });

  describe('refusals leave every balance unchanged', () => {
    it.each([
      ['destination', 'destination'],
      ['min-received', 'min_received'],
      ['token', 'token_out'],
    ])('tampered aggregator calldata (%s) → CALLDATA_MISMATCH naming %s', async (kind, field) => {
      const before = await balances(users.aliceHome);
      await knob(`${users.urls.aggregatorUrl}/sandbox/tamper-calldata`, { kind });
      const r = await alice(['trade', '1', 'ETH', 'USDC', '--yes']);
      expect(r.code).toBe(1);
      expect(r.doc.error).toMatchObject({ code: 'CALLDATA_MISMATCH', details: { field } });
      expect(await balances(users.aliceHome)).toEqual(before);
    });

    it('the price moved between quote and execution: the chain reverts the whole transaction, reported as TRANSACTION_REVERTED', async () => {
      const before = await balances(users.aliceHome);
      await knob(`${users.urls.chainUrl}/sandbox/chain/trade`, {
        tokenIn: 'STRK',
        tokenOut: 'USDC',
        amount: '500000',
        when: 'before-next-execution',
      });
      const r = await alice(['trade', '2000', 'STRK', 'USDC', '--slippage', '0.5', '--yes']);
      expect(r.code).toBe(1);
      expect(r.doc.error?.code).toBe('TRANSACTION_REVERTED');
      expect(r.doc.error?.message).toMatch(/nothing changed/);
      expect(await balances(users.aliceHome)).toEqual(before);
      // history keeps the reverted transaction, with the chain's reason
      const history = await cliInProcess(users.aliceHome, ['history']);
      expect(history.stdout).toMatch(
        /trade {7}reverted {3}sandbox {2}0x[0-9a-f]+\n {4}moved nothing; planned: swap 2000 STRK → at least [0-9.]+ USDC[^\n]*\n {4}reverted: 'Insufficient output amount: [0-9]+ is below min_received [0-9]+'\.\n/,
      );
    });

    it('the paymaster raised its fee after the build → FEE_ABOVE_MAX', async () => {
      const before = await balances(users.aliceHome);
      await knob(`${users.urls.chainUrl}/sandbox/chain/gas-price`, {
        l2GasPrice: '30000000000',
        afterNextBuild: true,
      });
      try {
        const r = await alice(['trade', '1', 'ETH', 'USDC', '--gas-token', 'STRK', '--yes']);
        expect(r.code).toBe(1);
        expect(r.doc.error?.code).toBe('FEE_ABOVE_MAX');
      } finally {
        await knob(`${users.urls.chainUrl}/sandbox/chain/gas-price`, { l2GasPrice: '10000000000' });
      }
      expect(await balances(users.aliceHome)).toEqual(before);
    });

    it('trade --slippage 20 --yes: refused without --allow-high-slippage (nothing signed), signed with it', async () => {
      const before = await balances(users.aliceHome);
      const refused = await alice(['trade', '0.01', 'ETH', 'USDC', '--slippage', '20', '--yes']);
      expect(refused.code).toBe(1);
      expect(refused.doc.error).toMatchObject({
        code: 'ACKNOWLEDGMENT_REQUIRED',
        details: { remedy: ['high-slippage'] },
      });
      const human = await cliInProcess(users.aliceHome, [
        ...['trade', '0.01', 'ETH', 'USDC', '--slippage', '20', '--yes', '--sandbox'],
      ]);
      expect(human.stderr).toMatch(
        /pass --allow-high-slippage to accept it \(ACKNOWLEDGMENT_REQUIRED\)/,
      );
      expect(await balances(users.aliceHome)).toEqual(before);
      const signed = await alice([
        ...['trade', '0.01', 'ETH', 'USDC', '--slippage', '20', '--allow-high-slippage', '--yes'],
      ]);
      expect(signed.doc.error).toBeUndefined();
      expect(signed.doc.transaction).toMatchObject({ status: 'SUCCEEDED' });
      expect(signed.doc.acknowledgments).toEqual([
        { id: 'high-slippage', reason: expect.stringContaining('slippage 20% is above 15%') },
      ]);
    });

    it('a price impact above 15 % → PRICE_IMPACT_TOO_HIGH; more than the wallet holds → INSUFFICIENT_BALANCE', async () => {
      const impact = await alice(['trade', '1500', 'ETH', 'USDC', '--yes']);
      expect(impact.doc.error?.code).toBe('PRICE_IMPACT_TOO_HIGH');
      const balance = await alice(['trade', '1500', 'ETH', 'USDC', '--allow-high-impact', '--yes']);
      expect(balance.doc.error).toMatchObject({
        code: 'INSUFFICIENT_BALANCE',
        details: { token: 'ETH' },
      });
    });

    it('usage refusals: four pairs, the test network, a bad pair', async () => {
      expect(
        (
          await aliceBin([
            'multi-swap',
            '--pairs',
            '1 USDC>ETH, 1 USDC>ETH, 1 USDC>ETH, 1 USDC>ETH',
          ])
        ).doc.error?.code,
      ).toBe('BATCH_LIMIT_EXCEEDED');
      const sepolia = await cli(users.aliceHome, [
        'trade',
        '1',
        'ETH',
        'USDC',
        '--network',
        'sepolia',
        '--json',
      ]);
      expect(sepolia.doc.error?.code).toBe('NETWORK_UNSUPPORTED');
      expect((await aliceBin(['batch', '--swap', '1 ETH USDC'])).doc.error?.code).toBe(
        'USAGE_ERROR',
      );
      expect((await aliceBin(['trade', '-1', 'ETH', 'USDC'])).doc.error?.code).toBe(
        'INVALID_AMOUNT',
      );
    });
  });

  it('history lists every transaction sent (send included), newest first, with its status', async () => {
    // its own user, so the list is what this test sent whatever ran before it
    const home = tempHome();
    try {
      copyFileSync(join(users.aliceHome, 'sandbox.json'), join(home.dir, 'sandbox.json'));
      await signIn(home.dir, 'historian@example.com');
      const own = (args: string[]) => cliInProcess(home.dir, [...args, '--sandbox', '--json']);
      const traded = await own(['trade', '1', 'ETH', 'USDC', '--yes']);
      expect(traded.code, traded.stdout).toBe(0);
      const sent = await own(['send', '1', 'STRK', users.bobAddress, '--yes']);
      expect(sent.code, sent.stdout).toBe(0);
      const r = await cliInProcess(home.dir, ['history', '--json']);
      expect(r.code).toBe(0);
      const entries = r.doc.entries as Array<{
        kind: string;
        status: string;
        hash: string;
        amounts: Array<{ direction: string; symbol: string; basis: string }>;
      }>;
      expect(entries.map((e) => `${e.kind}:${e.status}`)).toEqual([
        'send:succeeded',
        'trade:succeeded',
      ]);
      // one hash format: the receipt's hash is the history's, string for string
      expect(entries[0]?.hash).toBe((sent.doc.transaction as { hash: string }).hash);
      expect(
        (await cliInProcess(home.dir, ['history', '--limit', '1', '--json'])).doc.entries,
      ).toHaveLength(1);
      expect(entries.at(-1)?.amounts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ direction: 'out', symbol: 'ETH', basis: 'sent' }),
          expect.objectContaining({ direction: 'in', symbol: 'USDC', basis: 'received' }),
        ]),
      );
      const human = await cliInProcess(home.dir, ['history']);
      expect(human.stdout).toMatch(/sent 1 ETH; received [0-9.]+ USDC/);
    } finally {
      home.cleanup();
    }
  });
});
