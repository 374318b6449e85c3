/**
 * The `supply` leg type: a token into a Vesu pool to earn, through the pool's vToken (ERC-4626):
 * `approve(vToken, amount)` — the spender is the **vToken**, for exactly the amount — then
 * `vToken.deposit(amount, the account)`. Its read before planning is the vToken
 * (PoolFactory.v_token_for_asset, legs/lending-read.ts). Effects: the amount leaves exactly; the
 * supply position grows by it.
 */
import { addressToBigInt, sameAddress } from '../../../../shared/tokens.js';
import type { Token } from '../../../../shared/tokens.js';
import { buildApproveCall } from '../../chain/calls.js';
import { checkPoolCall } from './staking-common.js';
import {
  checkApprove,
  hexFelt,
  poolView,
  poolWords,
  u256Values,
  type VesuPool,
} from './lending-common.js';
import type { LegType } from './types.js';
import { exact, legAmount, shortAddress } from './words.js';

export interface SupplyLeg {
  type: 'supply';
  pool: VesuPool;
  token: Token;
  /** the pool's vToken for `token` (read from the factory) */
  vToken: string;
  amount: bigint;
}

const deposit = (leg: SupplyLeg, account: string) => ({
  contract: leg.vToken,
  entrypoint: 'deposit',
  args: [...u256Values(leg.amount), addressToBigInt(account) ?? -1n],
});

export const supplyLegType: LegType<SupplyLeg> = {
  calls: (leg, plan) => {
    const d = deposit(leg, plan.account);
    return [
      buildApproveCall(leg.token, leg.vToken, leg.amount),
      { contractAddress: d.contract, entrypoint: d.entrypoint, calldata: d.args.map(hexFelt) },
    ];
  },
  verify: (leg, calls, at, index, plan) => {
    const what = `supply ${index + 1} (${exact(leg.amount, leg.token)} to ${poolWords(leg.pool)})`;
    checkApprove(calls[at], leg.token, leg.vToken, leg.amount, what, at, 'the vToken');
    checkPoolCall(calls[at + 1], deposit(leg, plan.account), what, at + 1);
    return 2;
  },
  effects: (leg) => ({
    out: [{ token: leg.token, amount: leg.amount }],
    in: [],
    positions: [
      {
        kind: 'lending',
        pool: leg.pool.address,
        token: leg.token,
        change: 'supply',
        amount: leg.amount,
      },
    ],
  }),
  identity: (leg) => [leg.pool.address, leg.vToken],
  describe: (leg) => ({
    type: 'supply',
    amount: legAmount(leg.amount, leg.token),
    pool: poolView(leg.pool),
    vToken: leg.vToken,
  }),
  headline: (legs) => legs.map((l) => `supply ${exact(l.amount, l.token)} to ${poolWords(l.pool)}`),
  // the vToken the deposit goes to, as the factory names it
  moved: (planned, now) =>
    sameAddress(planned.vToken, now.vToken)
      ? []
      : [`the ${now.pool.name} pool's ${now.token.symbol} vToken is now ${now.vToken}`],
  describeCalls: (leg) => [
    `approve ${exact(leg.amount, leg.token)} to the ${leg.token.symbol} vToken ${shortAddress(leg.vToken)}`,
    `deposit ${exact(leg.amount, leg.token)} into ${poolWords(leg.pool)} (vToken shares to your account)`,
  ],
};
