/**
 * Liquidations of the wallet's lending positions, read from the chain (docs/commands.md
 * "lending"): the pool's `LiquidatePosition` events whose user is the wallet (shared/vesu.ts
 * VESU_LIQUIDATE_POSITION_EVENT), each with what was taken — collateral seized, debt repaid, the
 * bad debt — and what the position holds now. A liquidation is not sent by this client, so the
 * local history cannot know it: the chain is the truth. Exact amounts; an event of another shape
 * or of an unlisted token is skipped (outside data, never trusted for its shape).
 */
import { formatAmount } from '../../shared/amount.js';
import { feltHex } from '../../shared/felt.js';
import { listTokens, type Token } from '../../shared/tokens.js';
import { fromI257Felts, VESU_LIQUIDATE_POSITION_EVENT, type VesuPool } from '../../shared/vesu.js';
import type { ChainReader } from './chain/account.js';

export interface Liquidation {
  pool: string;
  transactionHash: string;
  blockNumber: number | null;
  liquidator: string;
  collateral: { token: string; seized: string; seizedBaseUnits: string };
  debt: {
    token: string;
    repaid: string;
    repaidBaseUnits: string;
    badDebt: string;
    badDebtBaseUnits: string;
  };
  /** the position now: what the liquidation (and anything since) left */
  left: {
    collateral: string;
    collateralBaseUnits: string;
    debt: string;
    debtBaseUnits: string;
  };
}

/** The most pages a read asks for, and the events in a page: at most 10 000 events from block 0. */
const MAX_PAGES = 10;
const PAGE_SIZE = 1000;

/** A LiquidatePosition event's fields, or undefined when it is not one of 5 keys and 14 felts. */
export function decodeLiquidatePosition(
  keys: readonly string[],
  data: readonly string[],
):
  | {
      collateral: bigint;
      debt: bigint;
      user: bigint;
      liquidator: bigint;
      collateralDelta: bigint;
      debtDelta: bigint;
      badDebt: bigint;
    }
  | undefined {
  if (keys.length !== 5 || data.length !== 14) return undefined;
  try {
    const k = keys.map((x) => BigInt(x));
    const d = data.map((x) => BigInt(x));
    if (k[0] !== VESU_LIQUIDATE_POSITION_EVENT) return undefined;
    const i257 = (at: number) =>
      fromI257Felts(d[at] as bigint, d[at + 1] as bigint, d[at + 2] as bigint);
    const collateralDelta = i257(0);
    const debtDelta = i257(6);
    for (const at of [3, 9]) if (i257(at) === undefined) return undefined;
    const low = d[12] as bigint;
    const high = d[13] as bigint;
    if (collateralDelta === undefined || debtDelta === undefined) return undefined;
    // a liquidation only takes: a delta above zero is not one
    if (collateralDelta > 0n || debtDelta > 0n) return undefined;
    if (low >= 1n << 128n || high >= 1n << 128n) return undefined;
    return {
      collateral: k[1] as bigint,
      debt: k[2] as bigint,
      user: k[3] as bigint,
      liquidator: k[4] as bigint,
      collateralDelta,
      debtDelta,
      badDebt: low + (high << 128n),
    };
  } catch {
    return undefined;
  }
}

/** The liquidations of `reader`'s positions in `pool`, oldest first. */
export async function readLiquidations(
  reader: ChainReader,
  pool: VesuPool,
): Promise<Liquidation[]> {
  const tokens = new Map<bigint, Token>(
    listTokens(reader.network).map((t) => [BigInt(t.address), t]),
  );
  const found: Array<{
    event: NonNullable<ReturnType<typeof decodeLiquidatePosition>>;
    hash: string;
    block: number | null;
  }> = [];
  let continuation: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const chunk = await reader.provider.getEvents({
      address: pool.address,
      from_block: { block_number: 0 },
      to_block: 'latest',
      keys: [[feltHex(VESU_LIQUIDATE_POSITION_EVENT)], [], [], [feltHex(BigInt(reader.address))]],
      chunk_size: PAGE_SIZE,
      ...(continuation === undefined ? {} : { continuation_token: continuation }),
    } as Parameters<typeof reader.provider.getEvents>[0]);
    for (const e of chunk.events) {
      const event = decodeLiquidatePosition(e.keys, e.data);
      if (event === undefined || event.user !== BigInt(reader.address)) continue;
      found.push({
        event,
        hash: feltHex(BigInt(e.transaction_hash)),
        block: typeof e.block_number === 'number' ? e.block_number : null,
      });
    }
    continuation = chunk.continuation_token;
    if (continuation === undefined) break;
  }
  // what each pair's position holds now: one read per pair, all in one parallel round
  const nowOf = new Map<string, Promise<string[]>>();
  const positionNow = (c: Token, d: Token): Promise<string[]> => {
    const key = `${c.address}|${d.address}`;
    let read = nowOf.get(key);
    if (read === undefined) {
      read = reader.provider.callContract({
        contractAddress: pool.address,
        entrypoint: 'position',
        calldata: [c.address, d.address, reader.address],
      });
      // never an unhandled rejection while another pair is awaited
      read.catch(() => undefined);
      nowOf.set(key, read);
    }
    return read;
  };
  const known = found.flatMap((f) => {
    const c = tokens.get(f.event.collateral);
    const d = tokens.get(f.event.debt);
    return c === undefined || d === undefined ? [] : [{ ...f, c, d, now: positionNow(c, d) }];
  });
  const result: Liquidation[] = [];
  for (const { event, hash, block, c, d, now: read } of known) {
    const now = await read;
    // (Position {collateral_shares, nominal_debt}, collateral, debt): u256 each
    const u = (at: number): bigint => BigInt(now[at] ?? '0') + (BigInt(now[at + 1] ?? '0') << 128n);
    const seized = -event.collateralDelta;
    const repaid = -event.debtDelta;
    result.push({
      pool: pool.name,
      transactionHash: hash,
      blockNumber: block,
      liquidator: feltHex(event.liquidator),
      collateral: {
        token: c.symbol,
        seized: formatAmount(seized, c.decimals),
        seizedBaseUnits: seized.toString(),
      },
      debt: {
        token: d.symbol,
        repaid: formatAmount(repaid, d.decimals),
        repaidBaseUnits: repaid.toString(),
        badDebt: formatAmount(event.badDebt, d.decimals),
        badDebtBaseUnits: event.badDebt.toString(),
      },
      left: {
        collateral: formatAmount(u(4), c.decimals),
        collateralBaseUnits: u(4).toString(),
        debt: formatAmount(u(6), d.decimals),
        debtBaseUnits: u(6).toString(),
      },
    });
  }
  return result;
}

/** One liquidation in words, for the faces (exact amounts). */
export function liquidationWords(l: Liquidation): string {
  const bad =
    l.debt.badDebtBaseUnits === '0' ? '' : ` (bad debt ${l.debt.badDebt} ${l.debt.token})`;
  return `liquidated: ${l.collateral.seized} ${l.collateral.token} of collateral seized, ${l.debt.repaid} ${l.debt.token} of debt repaid${bad}; left ${l.left.collateral} ${l.collateral.token} of collateral, ${l.left.debt} ${l.debt.token} of debt (${l.transactionHash})`;
}

/**
 * The wallet's liquidations as the faces that are not `lending` show them (`history`,
 * `portfolio`, the app): the read is never what fails the face — a note says why none were read.
 */
export interface LiquidationRead {
  liquidations: Liquidation[];
  /** what was read, in words (the bound included) */
  scope: string;
  /** why none could be read; null when the read succeeded (or there is nothing to read) */
  note: string | null;
}

/** The bound of a read, in words (docs/commands.md "history"). */
export function liquidationScope(pool: VesuPool): string {
  return `the ${pool.name} pool's LiquidatePosition events of this wallet from block 0 (at most ${MAX_PAGES * PAGE_SIZE})`;
}
