/**
 * A plan's document lists its legs (docs/commands.md "Plan JSON"), through the built bin and a
 * sandbox: `batch --supply … --stake …>VALIDATOR --send … --json` without --yes lists exactly
 * those legs, in call order, with exact base units; `plan_batch` over the tool server lists the
 * same legs (its output schema validates them); signed, the executed document echoes them.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectMcpInProcess } from './helpers/mcp.js';
import { cliInProcess, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';

const HEX = /^0x[0-9a-f]{64}$/;
const amount = (token: string, decimal: string, baseUnits: string) => ({
  token,
  tokenAddress: expect.stringMatching(HEX) as unknown,
  amount: decimal,
  baseUnits,
});

/** A line of the plan document (cli/core/actions/plan-lines.ts PlanLineJson). */
interface Line {
  kind: string;
  leg: number | null;
  words: string;
  amounts: Array<{ symbol: string; baseUnits: string; amount: string; decimals: number | null }>;
  to: string | null;
}

describe('a plan lists its legs (whole processes)', () => {
  let users: TwoUsers;
  beforeAll(async () => {
    users = await startTwoUsers();
  }, 120_000);
  afterAll(async () => {
    await users?.close();
  });

  const expectedLegs = () => [
    // a plan's transfers come before its other legs (the calls' order)
    { type: 'transfer', amount: amount('USDC', '1.25', '1250000'), to: users.bobAddress },
    {
      type: 'stake',
      amount: amount('STRK', '10', (10n * 10n ** 18n).toString()),
      validator: {
        name: 'Sandbox Alpha',
        staker: expect.stringMatching(HEX) as unknown,
        pool: expect.stringMatching(HEX) as unknown,
      },
      entry: 'enter',
    },
    {
      type: 'supply',
      amount: amount('USDT', '100', (100n * 10n ** 6n).toString()),
      pool: { name: 'Prime', address: expect.stringMatching(HEX) as unknown },
      vToken: expect.stringMatching(HEX) as unknown,
    },
  ];

  it('batch --json without --yes, plan_batch, and the signed batch list the same legs', async () => {
    const args = [
      'batch',
      '--supply',
      '100 USDT',
      '--stake',
      '10 STRK>Sandbox Alpha',
      '--send',
      `1.25 USDC>${users.bobAddress}`,
      '--sandbox',
      '--json',
    ];
    const planned = await cliInProcess(users.aliceHome, args);
    expect(planned.doc.error?.code, planned.stderr).toBe('CONFIRMATION_REQUIRED');
    const plan = planned.doc.error?.details?.plan as {
      legs: unknown[];
      calls: unknown[];
      lines: Line[];
    };
    expect(plan.legs).toEqual(expectedLegs());
    expect(plan.calls).toHaveLength(5);
    // one plan model (docs/architecture.md "One plan model"): a line per leg, in call order, the
    // recipient in full, each amount exact with its decimals
    expect(plan.lines.filter((l) => l.leg !== null).map((l) => [l.leg, l.words])).toEqual([
      [0, `send 1.25 USDC to ${users.bobAddress}`],
      [1, 'stake 10 STRK with Sandbox Alpha (a first stake in its pool)'],
      [2, 'supply 100 USDT to the Vesu Prime pool'],
    ]);
    expect(plan.lines[0]?.to).toBe(users.bobAddress);
    expect(plan.lines[0]?.amounts).toEqual([
      {
        symbol: 'USDC',
        address: expect.stringMatching(HEX),
        decimals: 6,
        baseUnits: '1250000',
        amount: '1.25',
      },
    ]);
    // the headless text shows every line of the document, as the core words it
    const human = await cliInProcess(
      users.aliceHome,
      args.filter((a) => a !== '--json'),
    );
    for (const l of plan.lines) expect(human.stdout + human.stderr).toContain(l.words);

    const { client } = await connectMcpInProcess(['--sandbox'], {
      FINANCE_TUI_HOME: users.aliceHome,
    });
    try {
      const r = await callTool(client, 'plan_batch', {
        supplies: [{ amount: '100', token: 'USDT' }],
        stakes: [{ amount: '10', token: 'STRK', validator: 'Sandbox Alpha' }],
        sends: [{ amount: '1.25', token: 'USDC', to: users.bobAddress }],
      });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      const viaMcp = r.structuredContent?.plan as { legs: unknown[]; lines: Line[] };
      // the same legs, to the address: one description for both faces
      expect(viaMcp.legs).toEqual(plan.legs);
      // and the same lines (same amounts, recipients, bounds)
      expect(viaMcp.lines).toEqual(plan.lines);
    } finally {
      await client.close();
    }

    const signed = await cliInProcess(users.aliceHome, [...args, '--yes']);
    expect(signed.doc.error, signed.stderr).toBeUndefined();
    expect(signed.doc.transaction).toMatchObject({ status: 'SUCCEEDED' });
    // the executed document echoes the plan: the legs as signed
    expect(signed.doc.legs).toEqual(plan.legs);
  }, 300_000);
});
