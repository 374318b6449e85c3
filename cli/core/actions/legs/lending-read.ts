/**
 * The `supply` and `withdraw` leg types' reads before planning (docs/architecture.md "Adding a leg
 * type"; cli/core/lending.ts): a supply's vToken, a withdrawal's shares — in parallel with each
 * other and with the balances and the account's facts. Their rules are applied here, before
 * anything is built (docs/checks.md "Lending"): nothing to withdraw (NO_POSITION), more than is
 * supplied (INVALID_AMOUNT), all of it beyond the pool's utilisation limit (LENDING_LIMIT). The
 * `position` leg's reads and rules are legs/position-read.ts.
 */
import { formatAmount } from '../../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../../shared/errors.js';
import type { Token } from '../../../../shared/tokens.js';
import type { VesuPool } from '../../../../shared/vesu.js';
import { readSupply, readVToken } from '../../lending-plan-reads.js';
import type { PositionSpec } from './position-read.js';
import type { SupplyLeg } from './supply.js';
import type { LegReadContext, LegSource } from './types.js';
import type { WithdrawLeg } from './withdraw.js';

/** A supply as a request names it; its vToken is read next. */
export interface SupplySpec {
  type: 'supply';
  pool: VesuPool;
  token: Token;
  amount: bigint;
}

/** A withdrawal of a supply as a request names it (undefined: all); its shares are read next. */
export interface WithdrawSpec {
  type: 'withdraw';
  pool: VesuPool;
  token: Token;
  amount?: bigint | undefined;
}

/** A lending leg as a request names it. */
export type LendingSpec = SupplySpec | WithdrawSpec | PositionSpec;

const show = (amount: bigint, token: Token): string =>
  `${formatAmount(amount, token.decimals)} ${token.symbol}`;

const optionsOf = ({ ctx, call }: LegReadContext) => ({
  signal: call.signal,
  vTokens: ctx.vTokens,
  sandbox: ctx.sandbox,
});

export const supplySource: LegSource<SupplySpec, SupplyLeg> = {
  spends: (spec) => [spec.token],
  names: (spec) => [spec.token],
  reread: { oracle: true },
  read: (specs, reads) =>
    Promise.all(
      specs.map(async (spec) => ({
        type: 'supply' as const,
        pool: spec.pool,
        token: spec.token,
        vToken: await readVToken(reads.ctx.account, spec.pool, spec.token, optionsOf(reads)),
        amount: spec.amount,
      })),
    ),
};

export const withdrawSource: LegSource<WithdrawSpec, WithdrawLeg> = {
  spends: () => [],
  names: (spec) => [spec.token],
  reread: { oracle: true },
  read: (specs, reads) =>
    Promise.all(
      specs.map(async (spec): Promise<WithdrawLeg> => {
        // the withdrawal calls the vToken: a known pool's is checked by its deploy address
        const s = await readSupply(reads.ctx.account, spec.pool, spec.token, {
          ...optionsOf(reads),
          checkOrigin: true,
        });
        if (s.shares === 0n)
          throw new AppError(
            ErrorCode.NO_POSITION,
            `you have no ${spec.token.symbol} supplied to the ${spec.pool.name} pool`,
          );
        const leg = {
          type: 'withdraw' as const,
          pool: spec.pool,
          token: spec.token,
          vToken: s.vToken,
        };
        if (spec.amount !== undefined) {
          if (spec.amount > s.assets)
            throw new AppError(
              ErrorCode.INVALID_AMOUNT,
              `you have ${show(s.assets, s.token)} supplied to the ${spec.pool.name} pool; cannot withdraw ${show(spec.amount, s.token)} (withdraw all takes everything)`,
              { details: { supplied: s.assets.toString() } },
            );
          return { ...leg, mode: 'assets', amount: spec.amount, shares: 0n };
        }
        if (s.maxRedeem < s.shares)
          throw new AppError(
            ErrorCode.LENDING_LIMIT,
            `nothing was signed: the ${spec.pool.name} pool lends out too much ${spec.token.symbol} to pay back all of your supply now (its utilisation limit); withdraw a smaller amount`,
            { details: { reason: 'utilization' } },
          );
        return { ...leg, mode: 'shares', amount: s.assets, shares: s.shares };
      }),
    ),
};
