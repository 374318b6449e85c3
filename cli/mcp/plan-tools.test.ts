/**
 * Each plan tool turns its input into exactly the core's request: every field lands where the
 * core reads it (collateral and debt never swapped), through the tool's own schema.
 */
import { describe, expect, it } from 'vitest';
import type { ActionKind } from '../core/actions/kinds.js';
import { PLAN_TOOLS } from './plan-tools.js';

const ADDR = `0x${'1'.repeat(64)}`;

/** A sample input per kind and the request it must give (a new kind needs its sample). */
const SAMPLES: Record<ActionKind, { input: Record<string, unknown>; request: unknown }> = {
  send: {
    input: { amount: '1.5', token: 'USDC', to: ADDR },
    request: { kind: 'send', transfer: { amount: '1.5', token: 'USDC', to: ADDR } },
  },
  trade: {
    input: { amount: '2', from: 'ETH', to: 'USDC', slippagePercent: '1' },
    request: { kind: 'trade', swap: { amount: '2', from: 'ETH', to: 'USDC' } },
  },
  rebalance: {
    input: { target: '50 ETH, 50 USDC', band: '3', minTrade: '5' },
    request: {
      kind: 'rebalance',
      rebalance: { target: '50 ETH, 50 USDC', sellUnlisted: false, band: '3', minTrade: '5' },
    },
  },
  'multi-swap': {
    input: {
      pairs: [
        { amount: '1', from: 'ETH', to: 'USDC' },
        { amount: '3', from: 'STRK', to: 'DAI' },
      ],
    },
    request: {
      kind: 'multi-swap',
      swaps: [
        { amount: '1', from: 'ETH', to: 'USDC' },
        { amount: '3', from: 'STRK', to: 'DAI' },
      ],
    },
  },
  batch: {
    input: {
      swaps: [{ amount: '1', from: 'ETH', to: 'USDC' }],
      sends: [{ amount: '4', token: 'DAI', to: ADDR }],
      supplies: [{ amount: '5', token: 'USDT' }],
      stakes: [{ amount: '6', token: 'STRK', validator: 'Braavos' }],
    },
    request: {
      kind: 'batch',
      swaps: [{ amount: '1', from: 'ETH', to: 'USDC' }],
      transfers: [{ amount: '4', token: 'DAI', to: ADDR }],
      supplies: [{ amount: '5', token: 'USDT' }],
      stakes: [{ amount: '6', token: 'STRK', validator: 'Braavos' }],
    },
  },
  stake: {
    input: { amount: '100', validator: 'Braavos' },
    request: { kind: 'stake', stake: { amount: '100', validator: 'Braavos' } },
  },
  unstake: {
    input: { amount: '40', validator: 'Ready', restartExit: true },
    request: { kind: 'unstake', unstake: { amount: '40', validator: 'Ready' } },
  },
  'unstake-complete': {
    input: { validator: 'Ready' },
    request: { kind: 'unstake-complete', validator: 'Ready' },
  },
  'claim-rewards': {
    input: { validator: 'Braavos' },
    request: { kind: 'claim-rewards', validator: 'Braavos' },
  },
  supply: {
    input: { amount: '7', token: 'USDC', pool: 'Prime' },
    request: { kind: 'supply', supply: { amount: '7', token: 'USDC', pool: 'Prime' } },
  },
  withdraw: {
    input: { amount: 'all', token: 'USDC' },
    request: { kind: 'withdraw', withdraw: { amount: 'all', token: 'USDC', pool: undefined } },
  },
  borrow: {
    input: {
      amount: '500',
      debt: 'USDC',
      collateral: 'ETH',
      collateralAmount: '1',
      pool: 'Prime',
    },
    request: {
      kind: 'borrow',
      borrow: {
        amount: '500',
        token: 'USDC',
        collateral: 'ETH',
        collateralAmount: '1',
        pool: 'Prime',
      },
    },
  },
  repay: {
    input: { amount: 'all', debt: 'USDC', collateral: 'ETH' },
    request: {
      kind: 'repay',
      repay: { amount: 'all', token: 'USDC', collateral: 'ETH', pool: undefined },
    },
  },
  'close-position': {
    input: { collateral: 'ETH', debt: 'USDC' },
    request: {
      kind: 'close-position',
      close: { collateral: 'ETH', debt: 'USDC', pool: undefined },
    },
  },
  'add-collateral': {
    input: { amount: '0.5', collateral: 'ETH', debt: 'USDC' },
    request: {
      kind: 'add-collateral',
      collateral: { amount: '0.5', token: 'ETH', debt: 'USDC', pool: undefined },
    },
  },
  'withdraw-collateral': {
    input: { amount: '0.2', collateral: 'ETH', debt: 'USDC', pool: 'Prime' },
    request: {
      kind: 'withdraw-collateral',
      collateral: { amount: '0.2', token: 'ETH', debt: 'USDC', pool: 'Prime' },
    },
  },
};

describe('plan tools', () => {
  it.each(Object.keys(SAMPLES) as ActionKind[])(
    '%s: its schema takes the sample and the request is exactly the core’s',
    (kind) => {
      const tool = PLAN_TOOLS[kind];
      const { input, request } = SAMPLES[kind];
      const parsed = tool.schema.parse(input);
      expect(tool.request(parsed as never)).toStrictEqual(request);
    },
  );

  it('an acknowledgment an agent sends is not part of any request', () => {
    const borrow = PLAN_TOOLS.borrow.request(
      PLAN_TOOLS.borrow.schema.parse({
        amount: '1',
        debt: 'USDC',
        collateral: 'ETH',
        acceptLowHealth: true,
      }) as never,
    );
    expect(JSON.stringify(borrow)).not.toMatch(/acceptLowHealth|acknowledg/);
  });

  it('acceptLowHealth is offered only by the plans that can lower a health factor', () => {
    const repay = { amount: '1', debt: 'USDC', collateral: 'ETH', acceptLowHealth: true };
    expect(PLAN_TOOLS.repay.schema.safeParse(repay).success).toBe(false);
    const { acceptLowHealth: _drop, ...plain } = repay;
    expect(PLAN_TOOLS.repay.schema.safeParse(plain).success).toBe(true);
  });

  it('in every lending plan tool, collateral and debt name the position and token is not taken', () => {
    const position = [
      'borrow',
      'repay',
      'close-position',
      'add-collateral',
      'withdraw-collateral',
    ] as const;
    for (const kind of position) {
      const shape = PLAN_TOOLS[kind].schema.shape as Record<string, unknown>;
      expect(Object.keys(shape), kind).toEqual(expect.arrayContaining(['collateral', 'debt']));
      expect(Object.keys(shape), kind).not.toContain('token');
    }
  });
});
