/**
 * A plan's document lists its legs (docs/commands.md "Plan JSON"), through the built bin and a
 * sandbox: `batch --supply … --stake …>VALIDATOR --send … --json` without --yes lists exactly
 * those legs, in call order, with exact base units; `plan_batch` over the tool server lists the
 * same legs (its output schema validates them); signed, the executed document echoes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectMcp } from './helpers/mcp.js';
import { cli, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';

const HEX = /^0x[0-9a-f]{64}$/;
const amount = (token: string, decimal: string, baseUnits: string) => ({
  token,
  tokenAddress: expect.stringMatching(HEX) as unknown,
  amount: decimal,
  baseUnits,
});

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
    const planned = await cli(users.aliceHome, args);
    expect(planned.doc.error?.code, planned.stderr).toBe('CONFIRMATION_REQUIRED');
    const plan = planned.doc.error?.details?.plan as { legs: unknown[]; calls: unknown[] };
    expect(plan.legs).toEqual(expectedLegs());
    expect(plan.calls).toHaveLength(5);

    const client = await connectMcp(['--sandbox'], { FINANCE_TUI_HOME: users.aliceHome });
    try {
      const r = await callTool(client, 'plan_batch', {
        supplies: [{ amount: '100', token: 'USDT' }],
        stakes: [{ amount: '10', token: 'STRK', validator: 'Sandbox Alpha' }],
        sends: [{ amount: '1.25', token: 'USDC', to: users.bobAddress }],
      });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      const viaMcp = (r.structuredContent?.plan as { legs: unknown[] }).legs;
      // the same legs, to the address: one description for both faces
      expect(viaMcp).toEqual(plan.legs);
    } finally {
      await client.close();
    }

    const signed = await cli(users.aliceHome, [...args, '--yes']);
    expect(signed.doc.error, signed.stderr).toBeUndefined();
    expect(signed.doc.transaction).toMatchObject({ status: 'SUCCEEDED' });
    // the executed document echoes the plan: the legs as signed
    expect(signed.doc.legs).toEqual(plan.legs);
  }, 300_000);
});
