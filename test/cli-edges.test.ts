/**
 * Argument edges a new user hits, through the built bin and a sandbox (docs/commands.md
 * "Lending", "Sandbox"): `--collateral AMOUNT TOKEN` read the same wherever the flag stands (or
 * refused), a negative number after a flag refused by that flag's own check (never Node's
 * parser words), and `sandbox price` bounded where it enters.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';

interface Spend {
  token: { symbol: string };
  amount: { amount: string; baseUnits: string };
}
interface Plan {
  kind: string;
  headline: string;
  spend: Spend[];
}

describe('argument edges (whole processes, one sandbox)', () => {
  let users: TwoUsers;
  const alice = (args: string[]) => cliInProcess(users.aliceHome, [...args, '--sandbox', '--json']);

  beforeAll(async () => {
    users = await startTwoUsers();
  }, 120_000);
  afterAll(async () => {
    await users?.close();
  });

  it.each([
    ['flag first', ['borrow', '--collateral', '1', 'ETH', '100', 'USDC']],
    ['flag last', ['borrow', '100', 'USDC', '--collateral', '1', 'ETH']],
    ['flag between', ['borrow', '100', '--collateral', '1', 'ETH', 'USDC']],
    ['inline value', ['borrow', '--collateral=1', 'ETH', '100', 'USDC']],
    ['one quoted value', ['borrow', '--collateral', '1 ETH', '100', 'USDC']],
    [
      'the token by its address',
      [
        'borrow',
        '--collateral',
        '1',
        '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7',
        '100',
        'USDC',
      ],
    ],
  ])(
    'borrow --collateral 1 ETH, %s: borrows 100 USDC against exactly 1 ETH',
    async (_name, args) => {
      const r = await alice(args);
      expect(r.doc.error?.code, r.stdout + r.stderr).toBe('CONFIRMATION_REQUIRED');
      const plan = r.doc.error?.details?.plan as Plan;
      expect(plan.kind).toBe('borrow');
      expect(plan.headline).toMatch(/^borrowing 100 USDC against ETH /);
      expect(plan.spend.map((s) => [s.token.symbol, s.amount.baseUnits])).toEqual([
        ['ETH', 10n ** 18n + ''],
      ]);
    },
  );

  it.each([
    [
      'a flag between the amount and its token',
      ['--collateral', '1', '--yes', 'ETH', '100', 'USDC'],
    ],
    ['a number after the amount', ['--collateral', '1', '100', 'USDC', 'ETH']],
    ['no token after the amount', ['100', 'USDC', '--collateral', '1']],
  ])(
    'borrow --collateral AMOUNT with %s is refused, never paired with another argument',
    async (_name, args) => {
      const r = await alice(['borrow', ...args]);
      expect(r.code).toBe(1);
      expect(r.doc.error).toMatchObject({
        code: 'USAGE_ERROR',
        message: expect.stringMatching(/^--collateral 1 needs its token right after it/),
      });
    },
  );

  it.each([
    ['borrow', ['borrow', '100', 'USDC', '--collateral', '-1', 'ETH'], 'INVALID_AMOUNT'],
    ['borrow (inline)', ['borrow', '100', 'USDC', '--collateral=-1', 'ETH'], 'INVALID_AMOUNT'],
    [
      'borrow --collateral "-1 ETH"',
      ['borrow', '100', 'USDC', '--collateral', '-1 ETH'],
      'INVALID_AMOUNT',
    ],
    ['batch --supply', ['batch', '--supply', '-1 USDC'], 'INVALID_AMOUNT'],
    ['send --max-fee', ['send', '1', 'USDC', '0x1234', '--max-fee', '-1'], 'INVALID_AMOUNT'],
    ['trade --slippage', ['trade', '1', 'ETH', 'USDC', '--slippage', '-1'], 'INVALID_SLIPPAGE'],
    ['history --limit', ['history', '--limit', '-5'], 'USAGE_ERROR'],
    ['supply', ['supply', '-1', 'USDC'], 'INVALID_AMOUNT'],
    ['sandbox price', ['sandbox', 'price', 'ETH', '-5'], 'USAGE_ERROR'],
    ['sandbox advance', ['sandbox', 'advance', '-1d'], 'USAGE_ERROR'],
  ])('a negative number in %s is refused by its own check', async (_name, args, code) => {
    const r = await alice(args);
    expect(r.code).toBe(1);
    expect(r.doc.error?.code, r.stdout).toBe(code);
    expect(r.doc.error?.message).not.toMatch(/ambiguous|Did you forget/);
  });

  it('sandbox price refuses a price outside $0.000001..$10,000,000 and ETH stays priced', async () => {
    for (const usd of ['99999999999999999999', '10000000.01', '0.0000009']) {
      const r = await cliInProcess(users.aliceHome, ['sandbox', 'price', 'ETH', usd, '--json']);
      expect(r.code, usd).toBe(1);
      expect(r.doc.error).toMatchObject({
        code: 'USAGE_ERROR',
        message: expect.stringContaining('from $0.000001 to $10,000,000 per whole token'),
      });
    }
    const quote = await alice(['quote', '1', 'ETH', 'USDC']);
    expect(quote.code, quote.stdout).toBe(0);
    const top = await cliInProcess(users.aliceHome, [
      'sandbox',
      'price',
      'ETH',
      '10000000',
      '--json',
    ]);
    expect(top.doc).toMatchObject({ token: 'ETH', usd: '10000000' });
    const back = await cliInProcess(users.aliceHome, ['sandbox', 'price', 'ETH', '3000', '--json']);
    expect(back.doc).toMatchObject({ token: 'ETH', usd: '3000' });
  });
});
