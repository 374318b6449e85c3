/**
 * The running sandbox's controls (docs/sandbox-chain.md "The clock", "Lending", "Staking"):
 * `sandbox advance` moves its chain's clock, `sandbox price` sets a token's price for the lending
 * oracle and the market, `sandbox remove-staker` removes a validator's staker, each through a sandbox-only route of the chain emulator (our auth server never exposes
 * them). The chain emulator is found through the running sandbox's `rpcUrl` (its `/rpc`), as
 * `--sandbox` finds the sandbox through the data folder.
 */
import * as Type from 'typebox';
import { formatAmount, parseAmount } from '../../shared/amount.js';
import { AppError, ErrorCode, usageError } from '../../shared/errors.js';
import {
  type PriceSource,
  SANDBOX_MARKET_UNIT,
  sandboxPriceRefusal,
} from '../../shared/sandbox.js';
import { parseAddress, resolveToken, sameAddress } from '../../shared/tokens.js';
import { printable } from '../../shared/printable.js';
import { VESU_NOT_UNDERCOLLATERALIZED } from '../../shared/vesu.js';
import { FELT_HEX } from '../../shared/felt.js';
import { findValidator, validatorsFor } from '../../shared/staking.js';
import { createHttpClient } from '../clients/http.js';
import type { CallOptions } from './call.js';
import { parseDurationWithin } from './duration.js';
import type { Endpoints } from './endpoints.js';

/** The longest single move of the clock (the chain emulator's own bound too). */
export const MAX_ADVANCE_SECONDS = 400 * 86_400;

/** `30s`, `90m`, `2h`, `8d` → seconds; anything else, zero or above 400 days is a USAGE_ERROR. */
export function parseDuration(text: string): number {
  return parseDurationWithin(text, {
    seconds: MAX_ADVANCE_SECONDS,
    words: 'the sandbox clock moves at most 400 days at a time (400d)',
  });
}

interface AdvanceResult {
  /** seconds the clock moved */
  advancedBy: number;
  /** the chain's time now, ISO 8601 (UTC) */
  chainTime: string;
  /** the same, unix seconds (the latest block's timestamp) */
  chainTimestamp: number;
}

const AdvanceAnswer = Type.Object({ advancedBy: Type.Integer(), chainTime: Type.Integer() });

/** The chain emulator's base URL: the running sandbox's rpcUrl without its `/rpc`. */
function chainUrlOf(endpoints: Endpoints): string {
  if (!endpoints.sandbox || endpoints.rpcUrl === undefined)
    throw usageError('the clock can be moved only in the sandbox: real chains keep their own time');
  return new URL('/', endpoints.rpcUrl).toString();
}

/** Moves the running sandbox chain's clock forward by `seconds`. */
export async function advanceSandbox(
  endpoints: Endpoints,
  seconds: number,
  call: CallOptions = {},
): Promise<AdvanceResult> {
  const http = createHttpClient({
    baseUrl: chainUrlOf(endpoints),
    service: 'sandbox chain',
    retries: 0,
    timeoutMs: 5_000,
  });
  const { body } = await http.post<{ advancedBy: number; chainTime: number }>(
    'sandbox/chain/advance',
    { seconds },
    { signal: call.signal, schema: AdvanceAnswer },
  );
  return {
    advancedBy: body.advancedBy,
    chainTime: new Date(body.chainTime * 1000).toISOString(),
    chainTimestamp: body.chainTime,
  };
}

interface PriceResult {
  token: string;
  address: string;
  /** the oracle's price now, exact (USD per whole token) */
  usd: string;
  /** the market's (the aggregator's) price now (after its pools moved to it: as close as reserves allow); absent for the market's unit */
  marketUsd?: string;
  /** the one source moved (absent: all three) */
  only?: PriceSource;
}

const PriceAnswer = Type.Object({
  token: Type.String(),
  symbol: Type.String(),
  usd: Type.String(),
  marketUsd: Type.Optional(Type.String()),
});

/**
 * Sets the running sandbox's USD price of a token: the lending oracle's, Pragma's, and the
 * market's (its pools move to it, so the aggregator quotes it); `only` moves one of them alone
 * (docs/sandbox-chain.md "Prices"). `usd` is an exact decimal (at most 18 places).
 */
export async function setSandboxPrice(
  endpoints: Endpoints,
  tokenText: string,
  usdText: string,
  call: CallOptions = {},
  only?: PriceSource,
): Promise<PriceResult> {
  const token = resolveToken(endpoints.network, tokenText);
  if (
    (only === undefined || only === 'aggregator') &&
    sameAddress(token.address, resolveToken(endpoints.network, SANDBOX_MARKET_UNIT).address)
  )
    throw usageError(
      `${SANDBOX_MARKET_UNIT} is the sandbox market's unit of account: its price is 1 and stays so`,
    );
  const usd = parseAmount(usdText, 18, { label: 'USD' });
  // the emulator's own bound, said before asking it (shared/sandbox.ts)
  const outOfRange = sandboxPriceRefusal(usd);
  if (outOfRange !== undefined)
    throw usageError(`${token.symbol} cannot be set to $${formatAmount(usd, 18)}: ${outOfRange}`);
  const http = createHttpClient({
    baseUrl: chainUrlOf(endpoints),
    service: 'sandbox chain',
    retries: 0,
    timeoutMs: 5_000,
  });
  try {
    const { body } = await http.post<{ marketUsd?: string }>(
      'sandbox/chain/price',
      { token: token.address, usd: formatAmount(usd, 18), ...(only === undefined ? {} : { only }) },
      { signal: call.signal, schema: PriceAnswer },
    );
    return {
      token: token.symbol,
      address: token.address,
      usd: formatAmount(usd, 18),
      ...(body.marketUsd === undefined ? {} : { marketUsd: body.marketUsd }),
      ...(only === undefined ? {} : { only }),
    };
  } catch (error) {
    // the emulator refuses a price its market cannot take (a pool left without a reserve)
    if (error instanceof AppError && error.details?.status === 400)
      throw new AppError(
        ErrorCode.USAGE_ERROR,
        `the sandbox cannot move ${token.symbol} to $${formatAmount(usd, 18)}: try a less extreme price`,
      );
    throw error;
  }
}

/** The chain emulator's refusal word (`{error, code}` body of a 409), outside text: made printable by the caller. */
function refusalCode(error: AppError): unknown {
  const data = (error.cause as { data?: unknown } | undefined)?.data;
  return typeof data === 'object' && data !== null ? (data as { code?: unknown }).code : undefined;
}

interface LiquidateResult {
  transactionHash: string;
  collateral: string;
  debt: string;
  user: string;
  /** exact amounts in token units, and the same in base units */
  collateralSeized: string;
  debtRepaid: string;
  badDebt: string;
  collateralLeft: string;
  debtLeft: string;
  baseUnits: {
    collateralSeized: string;
    debtRepaid: string;
    badDebt: string;
    collateralLeft: string;
    debtLeft: string;
  };
}

const Digits = Type.String({ pattern: '^[0-9]{1,78}$' });
const LiquidateAnswer = Type.Object({
  transactionHash: Type.String({ pattern: '^0x[0-9a-f]{64}$' }),
  collateralSeized: Digits,
  debtRepaid: Digits,
  badDebt: Digits,
  collateralLeft: Digits,
  debtLeft: Digits,
});

/**
 * Liquidates `user`'s position on the pair (collateral, debt) on the running sandbox: the
 * sandbox's own liquidator calls the pool's `liquidate_position`, repaying `repay` (token units;
 * default all the debt). The pool refuses a collateralised position: POSITION_HEALTHY, with
 * details.reason 'not-undercollateralized' (the pool's word); any other refusal of the pool is
 * LENDING_LIMIT with its word as details.reason.
 */
export async function liquidateSandbox(
  endpoints: Endpoints,
  params: { collateral: string; debt: string; user: string; repay?: string | undefined },
  call: CallOptions = {},
): Promise<LiquidateResult> {
  const collateral = resolveToken(endpoints.network, params.collateral);
  const debt = resolveToken(endpoints.network, params.debt);
  if (sameAddress(collateral.address, debt.address))
    throw usageError('the collateral and the debt are two different tokens');
  const user = parseAddress(params.user, 'user');
  const repay =
    params.repay === undefined
      ? undefined
      : formatAmount(
          parseAmount(params.repay, debt.decimals, { label: debt.symbol }),
          debt.decimals,
        );
  const http = createHttpClient({
    baseUrl: chainUrlOf(endpoints),
    service: 'sandbox chain',
    retries: 0,
    timeoutMs: 5_000,
  });
  let body: Type.Static<typeof LiquidateAnswer>;
  try {
    ({ body } = await http.post<Type.Static<typeof LiquidateAnswer>>(
      'sandbox/chain/liquidate',
      {
        collateral: collateral.address,
        debt: debt.address,
        user,
        ...(repay === undefined ? {} : { debtToRepay: repay }),
      },
      { signal: call.signal, schema: LiquidateAnswer },
    ));
  } catch (error) {
    if (error instanceof AppError && error.details?.status === 409) {
      const reason = printable(String(refusalCode(error) ?? 'refused')).slice(0, 80);
      if (reason === VESU_NOT_UNDERCOLLATERALIZED)
        throw new AppError(
          ErrorCode.POSITION_HEALTHY,
          `the ${collateral.symbol}/${debt.symbol} position of ${user} is collateralised: the pool refuses to liquidate it (lower the ${collateral.symbol} price first)`,
          { details: { reason } },
        );
      throw new AppError(ErrorCode.LENDING_LIMIT, `the pool refused the liquidation: ${reason}`, {
        details: { reason },
      });
    }
    throw error;
  }
  const units = (value: string, decimals: number): string => formatAmount(BigInt(value), decimals);
  return {
    transactionHash: body.transactionHash,
    collateral: collateral.symbol,
    debt: debt.symbol,
    user,
    collateralSeized: units(body.collateralSeized, collateral.decimals),
    debtRepaid: units(body.debtRepaid, debt.decimals),
    badDebt: units(body.badDebt, debt.decimals),
    collateralLeft: units(body.collateralLeft, collateral.decimals),
    debtLeft: units(body.debtLeft, debt.decimals),
    baseUnits: {
      collateralSeized: body.collateralSeized,
      debtRepaid: body.debtRepaid,
      badDebt: body.badDebt,
      collateralLeft: body.collateralLeft,
      debtLeft: body.debtLeft,
    },
  };
}

interface RemoveStakerResult {
  /** the preset's name, or the staker address given */
  validator: string;
  staker: string;
  /** its STRK pool, when it is a preset */
  pool: string | null;
  /** what the chain emitted: the staking contract's DeleteStaker, the pool's StakerRemoved */
  events: Array<{ from: string; keys: string[]; data: string[] }>;
}

const RemoveStakerAnswer = Type.Object({
  staker: Type.String(),
  events: Type.Array(
    Type.Object({
      from: Type.String(),
      keys: Type.Array(Type.String()),
      data: Type.Array(Type.String()),
    }),
    { maxItems: 16 },
  ),
});

/**
 * Removes a validator's staker on the running sandbox (docs/sandbox-chain.md "Staking"): what the
 * staking contract's `unstake_action` does, at once. The validator is a sandbox preset's name or
 * a staker address; UNKNOWN_VALIDATOR when it is neither, or the chain knows no such staker (or
 * it was removed already).
 */
export async function removeSandboxStaker(
  endpoints: Endpoints,
  nameOrAddress: string,
  call: CallOptions = {},
): Promise<RemoveStakerResult> {
  const baseUrl = chainUrlOf(endpoints);
  const presets = validatorsFor(endpoints.network, { sandbox: true });
  const preset = findValidator(presets, nameOrAddress);
  const key = nameOrAddress.trim();
  if (preset === undefined && !FELT_HEX.test(key))
    throw new AppError(
      ErrorCode.UNKNOWN_VALIDATOR,
      `no sandbox validator named "${key.slice(0, 60)}" (known: ${presets.map((v) => v.name).join(', ')}; or give a staker address)`,
    );
  const staker = preset?.staker ?? parseAddress(key, 'validator');
  const http = createHttpClient({
    baseUrl,
    service: 'sandbox chain',
    retries: 0,
    timeoutMs: 5_000,
  });
  try {
    const { body } = await http.post<{
      staker: string;
      events: Array<{ from: string; keys: string[]; data: string[] }>;
    }>(
      'sandbox/chain/remove-staker',
      { staker },
      { signal: call.signal, schema: RemoveStakerAnswer },
    );
    return {
      validator: preset?.name ?? staker,
      staker,
      pool: preset?.pool ?? null,
      events: body.events,
    };
  } catch (error) {
    // the staking contract's STAKER_NOT_EXISTS: no such staker, or removed already
    if (error instanceof AppError && error.details?.status === 400)
      throw new AppError(
        ErrorCode.UNKNOWN_VALIDATOR,
        `${preset?.name ?? staker} is not a staker of the sandbox's staking contract (or it was removed already)`,
      );
    throw error;
  }
}
