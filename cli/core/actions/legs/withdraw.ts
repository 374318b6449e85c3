/**
 * The `withdraw` leg type: a supplied token back from a Vesu pool's vToken (ERC-4626):
 * `withdraw(assets, the account, the account)` for an amount, or — for "all" —
 * `redeem(shares, the account, the account)` of every share the vToken lets go now
 * (`max_redeem`), so no share is left behind. Its reads before planning are the vToken and the
 * account's shares (legs/lending-read.ts). Effects: exactly the amount arrives (an amount), or at
 * least what the shares redeemed for when read (all: interest only adds).
 */
import { addressToBigInt } from '../../../../shared/tokens.js';
import type { Token } from '../../../../shared/tokens.js';
import { checkPoolCall } from './staking-common.js';
import { hexFelt, poolView, poolWords, u256Values, type VesuPool } from './lending-common.js';
import type { LegType } from './types.js';
import { exact, legAmount, shortAddress } from './words.js';

export interface WithdrawLeg {
  type: 'withdraw';
  pool: VesuPool;
  token: Token;
  vToken: string;
  /** assets: withdraw exactly `amount`; shares: redeem `shares` (all), worth at least `amount` */
  mode: 'assets' | 'shares';
  amount: bigint;
  shares: bigint;
}

const call = (leg: WithdrawLeg, account: string) => {
  const who = addressToBigInt(account) ?? -1n;
  return leg.mode === 'assets'
    ? { contract: leg.vToken, entrypoint: 'withdraw', args: [...u256Values(leg.amount), who, who] }
    : { contract: leg.vToken, entrypoint: 'redeem', args: [...u256Values(leg.shares), who, who] };
};

export const withdrawLegType: LegType<WithdrawLeg> = {
  calls: (leg, plan) => {
    const c = call(leg, plan.account);
    return [
      { contractAddress: c.contract, entrypoint: c.entrypoint, calldata: c.args.map(hexFelt) },
    ];
  },
  verify: (leg, calls, at, index, plan) => {
    const what = `withdrawal ${index + 1} (${exact(leg.amount, leg.token)} from ${poolWords(leg.pool)})`;
    checkPoolCall(calls[at], call(leg, plan.account), what, at);
    return 1;
  },
  effects: (leg) => ({
    out: [],
    in: [
      { token: leg.token, amount: leg.amount, basis: leg.mode === 'assets' ? 'exact' : 'minimum' },
    ],
    positions: [
      {
        kind: 'lending',
        pool: leg.pool.address,
        token: leg.token,
        change: 'withdraw',
        // all: every share, whatever they are worth by then (so a retry is the same plan)
        amount: leg.mode === 'assets' ? leg.amount : 0n,
      },
    ],
  }),
  identity: (leg) => [leg.pool.address, leg.vToken, leg.mode],
  describe: (leg) => ({
    type: 'withdraw',
    pool: poolView(leg.pool),
    vToken: leg.vToken,
    ...(leg.mode === 'assets'
      ? { all: false, amount: legAmount(leg.amount, leg.token) }
      : { all: true, minimum: legAmount(leg.amount, leg.token), shares: leg.shares.toString() }),
  }),
  headline: (legs) =>
    legs.map((l) =>
      l.mode === 'assets'
        ? `withdraw ${exact(l.amount, l.token)} from ${poolWords(l.pool)}`
        : `withdraw all your ${l.token.symbol} (at least ${exact(l.amount, l.token)}) from ${poolWords(l.pool)}`,
    ),
  // all: the shares redeemed (fewer now: the redeem reverts; more: not all) and what they are
  // worth at least; an amount: the read refuses it when no longer supplied
  moved: (planned, now) =>
    planned.mode !== 'shares' || now.mode !== 'shares'
      ? []
      : [
          ...(now.shares !== planned.shares
            ? [
                `your ${now.token.symbol} supplied to ${poolWords(now.pool)} is no longer the one reviewed: worth ${exact(now.amount, now.token)} now, ${exact(planned.amount, planned.token)} when reviewed`,
              ]
            : []),
          ...(now.amount < planned.amount
            ? [
                `all of it is now worth ${exact(now.amount, now.token)}, less than the ${exact(planned.amount, planned.token)} reviewed`,
              ]
            : []),
        ],
  describeCalls: (leg) => [
    leg.mode === 'assets'
      ? `withdraw ${exact(leg.amount, leg.token)} from the ${leg.token.symbol} vToken ${shortAddress(leg.vToken)} to your account`
      : `withdraw all your ${leg.token.symbol} from the ${leg.token.symbol} vToken ${shortAddress(leg.vToken)} to your account: every share, worth at least ${exact(leg.amount, leg.token)}`,
  ],
};
