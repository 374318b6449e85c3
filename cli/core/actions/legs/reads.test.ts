import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors.js';
import { ROUTER_ADDRESS } from '../../../../shared/swap-calldata.js';
import type { ActionRequest } from '../pipeline.js';
import { legsOf } from '../resolve.js';
import { namedTokens, readLegs, rereadSpecs, spentTokens } from './reads.js';

const where = { network: 'mainnet' as const, account: undefined, router: ROUTER_ADDRESS };
const BOB = `0x${'b0b'.padStart(64, '0')}`;
const spent = (request: ActionRequest): string[] =>
  spentTokens(legsOf(request, where).specs).map((t) => t.symbol);

describe('the legs declare what they spend: the plan reads those balances', () => {
  it.each<[string, ActionRequest, string[]]>([
    ['send', { kind: 'send', transfer: { amount: '1', token: 'USDC', to: BOB } }, ['USDC']],
    ['trade', { kind: 'trade', swap: { amount: '1', from: 'STRK', to: 'ETH' } }, ['STRK']],
    ['stake', { kind: 'stake', stake: { amount: '1', validator: 'Braavos' } }, ['STRK']],
    ['unstake', { kind: 'unstake', unstake: { amount: '1', validator: 'Braavos' } }, []],
    ['claim', { kind: 'claim-rewards', validator: 'Braavos' }, []],
    ['supply', { kind: 'supply', supply: { amount: '1', token: 'USDC' } }, ['USDC']],
    ['withdraw', { kind: 'withdraw', withdraw: { amount: 'all', token: 'USDC' } }, []],
    [
      'borrow',
      { kind: 'borrow', borrow: { amount: '1', token: 'USDC', collateral: 'ETH' } },
      ['ETH'],
    ],
    [
      'repay',
      { kind: 'repay', repay: { amount: 'all', token: 'USDC', collateral: 'ETH' } },
      ['USDC'],
    ],
    ['close', { kind: 'close-position', close: { collateral: 'ETH', debt: 'USDC' } }, ['USDC']],
    // the shipped bug of issue 34: add-collateral read no balance and was refused
    [
      'add collateral',
      { kind: 'add-collateral', collateral: { amount: '1', token: 'ETH', debt: 'USDC' } },
      ['ETH'],
    ],
    [
      'withdraw collateral',
      { kind: 'withdraw-collateral', collateral: { amount: 'all', token: 'ETH', debt: 'USDC' } },
      [],
    ],
  ])('%s', (_name, request, tokens) => {
    expect(spent(request)).toEqual(tokens);
  });

  it('a batch: its legs in call order (swaps, transfers, stakes, supplies), each spending its own', () => {
    const legs = legsOf(
      {
        kind: 'batch',
        swaps: [{ amount: '1', from: 'STRK', to: 'ETH' }],
        transfers: [{ amount: '2', token: 'USDT', to: BOB }],
        supplies: [{ amount: '3', token: 'USDC' }],
        stakes: [{ amount: '4', validator: 'Braavos' }],
      },
      where,
    );
    expect(legs.specs.map((s) => s.type)).toEqual(['swap', 'transfer', 'stake', 'supply']);
    expect(spentTokens(legs.specs).map((t) => t.symbol)).toEqual(['STRK', 'USDT', 'STRK', 'USDC']);
    expect(namedTokens(legs.specs).map((t) => t.symbol)).toEqual([
      'STRK',
      'ETH',
      'USDT',
      'STRK',
      'USDC',
    ]);
    // read again before signing: the chain-read legs only
    expect(rereadSpecs(legs.specs).map((s) => s.type)).toEqual(['stake', 'supply']);
  });

  it("each leg's own rules apply before any request: a batch's transfer to the router is refused", () => {
    const run = () =>
      legsOf(
        {
          kind: 'batch',
          swaps: [],
          transfers: [{ amount: '1', token: 'USDC', to: ROUTER_ADDRESS }],
        },
        where,
      );
    expect(run).toThrow(AppError);
    expect(() => run()).toThrow(/swap router/);
  });

  it('the reads give the legs back in the request order', async () => {
    const { specs } = legsOf(
      {
        kind: 'batch',
        swaps: [],
        transfers: [
          { amount: '1', token: 'USDC', to: BOB },
          { amount: '2', token: 'STRK', to: BOB },
        ],
      },
      where,
    );
    // a transfer reads nothing: no context is touched
    const legs = await readLegs(specs, {
      ctx: undefined as never,
      call: {},
      mode: 'single',
      slippageBps: 100,
    });
    expect(legs.map((l) => (l.type === 'transfer' ? l.transfer.token.symbol : l.type))).toEqual([
      'USDC',
      'STRK',
    ]);
  });
});
