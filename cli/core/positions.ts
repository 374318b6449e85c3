/**
 * The wallet's positions as portfolio lines (docs/portfolio.md "Positions"): staked amounts, amounts
 * in an exit window and unclaimed rewards (cli/core/staking.ts), Vesu supplies and collateral as
 * holdings, Vesu debt as a negative line with the borrow's health factor beside it
 * (cli/core/lending.ts). They are not wallet balances (a supply is held as vToken shares, a stake
 * by the pool), so nothing is counted twice. The position reads start beside the wallet's balances:
 * one round of every view at once, then one round for what is held (docs/portfolio.md
 * "Positions"), whatever the number of positions. A read that fails leaves its family out with a
 * note, never a guessed amount.
 */
import { formatAmount } from '../../shared/amount.js';
import { resolveToken, type Token } from '../../shared/tokens.js';
import type { ChainReader } from './chain/account.js';
import { batchedViews } from './chain/views.js';
import { readLending } from './lending.js';
import type { VTokenHints } from './lending-pool.js';
import { NETWORKS_OF } from './actions/rules.js';
import { stakingOf } from './staking.js';

type PositionKind = 'staked' | 'exiting' | 'unclaimed-rewards' | 'supplied' | 'collateral' | 'debt';

/** One position line before pricing: `sign` −1 for a debt. */
interface PositionItem {
  kind: PositionKind;
  /** the validator or the pool */
  source: string;
  token: Token;
  amount: bigint;
  sign: 1n | -1n;
  /** a debt's health factor (decimal string), null without debt */
  healthFactor?: string | null | undefined;
}

export interface PositionRead {
  items: PositionItem[];
  notes: string[];
}

const tokenOf = (reader: ChainReader, symbol: string): Token =>
  resolveToken(reader.network, symbol);

/**
 * Every position of the account on its network (staking and lending), in one go: one viewer for
 * both families, so their first-round views leave together as JSON-RPC batches (chain/views.ts).
 */
export async function readPositions(
  reader: ChainReader,
  options: {
    signal?: AbortSignal | undefined;
    sandbox?: boolean | undefined;
    vTokens?: VTokenHints | undefined;
  } = {},
): Promise<PositionRead> {
  const network = reader.network;
  const stakingRuns = (NETWORKS_OF.staking as readonly string[]).includes(network);
  const lendingRuns = (NETWORKS_OF.lending as readonly string[]).includes(network);
  const views = batchedViews(reader);
  const notes: string[] = [];
  const [staking, lending] = await Promise.all([
    stakingRuns
      ? stakingOf(reader, { ...options, views }).catch(() => {
          notes.push('staking positions could not be read: left out of the net total');
          return undefined;
        })
      : undefined,
    lendingRuns
      ? readLending(reader, {
          signal: options.signal,
          views,
          vTokens: options.vTokens,
          rates: false,
        }).catch(() => {
          notes.push('lending positions could not be read: left out of the net total');
          return undefined;
        })
      : undefined,
  ]);
  const items: PositionItem[] = [];
  for (const p of staking?.positions ?? []) {
    const token = tokenOf(reader, p.token);
    const add = (kind: PositionKind, baseUnits: string): void => {
      if (baseUnits !== '0')
        items.push({ kind, source: p.validator, token, amount: BigInt(baseUnits), sign: 1n });
    };
    add('staked', p.staked.baseUnits);
    add('exiting', p.exiting.baseUnits);
    add('unclaimed-rewards', p.unclaimedRewards.baseUnits);
  }
  for (const s of lending?.supplied ?? [])
    items.push({
      kind: 'supplied',
      source: s.pool,
      token: tokenOf(reader, s.token),
      amount: BigInt(s.baseUnits),
      sign: 1n,
    });
  for (const b of lending?.borrows ?? []) {
    if (b.collateral.baseUnits !== '0')
      items.push({
        kind: 'collateral',
        source: b.pool,
        token: tokenOf(reader, b.collateral.token),
        amount: BigInt(b.collateral.baseUnits),
        sign: 1n,
      });
    if (b.debt.baseUnits !== '0')
      items.push({
        kind: 'debt',
        source: `${b.pool} (against ${b.collateral.token})`,
        token: tokenOf(reader, b.debt.token),
        amount: BigInt(b.debt.baseUnits),
        sign: -1n,
        healthFactor: b.healthFactor,
      });
  }
  return { items, notes };
}

/** A position line as the portfolio shows it: signed amount and value (a debt negative). */
export interface PortfolioPosition {
  kind: PositionKind;
  source: string;
  symbol: string;
  amount: string;
  baseUnits: string;
  value: { usd: string; cents: string } | null;
  healthFactor?: string | null;
}

const signedUsd = (cents: bigint): string => {
  const abs = cents < 0n ? -cents : cents;
  return `${cents < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
};

/** One line, valued at `cents` (unsigned) when priced. */
export function positionLine(item: PositionItem, cents: bigint | undefined): PortfolioPosition {
  const signed = item.sign * item.amount;
  return {
    kind: item.kind,
    source: item.source,
    symbol: item.token.symbol,
    amount: formatAmount(signed, item.token.decimals),
    baseUnits: signed.toString(),
    value:
      cents === undefined
        ? null
        : { usd: signedUsd(item.sign * cents), cents: (item.sign * cents).toString() },
    ...(item.kind === 'debt' ? { healthFactor: item.healthFactor ?? null } : {}),
  };
}

export { signedUsd };
