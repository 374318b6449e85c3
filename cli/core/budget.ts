/**
 * A rolling spending budget (docs/architecture.md "Tool server"): the most a face that signs
 * without a person at each step (the tool server's `--budget-usd`) may move in any 24 hours, on
 * one chain. A rule on money, so it lives in the core and names no face's flag.
 *
 * What counts is what was actually submitted, at the value the caps computed for it
 * (actions/caps.ts): a spend is recorded (reserved) before signing, kept when the transaction left
 * the client whatever happened next (an outcome that is not known counts), and released only when
 * nothing left the client. A process that dies between the two leaves its reservation counted:
 * the budget errs on the side of less.
 *
 * The record is `mcp-budget.json` in the data folder, read and written under the file lock with
 * the atomic writer (shared/fs.ts), so a restart does not reset it and two servers share it. A
 * record that cannot be read or does not parse refuses every spend (fail closed) until the person
 * repairs or removes it; it is never set aside silently, since that would reset the budget.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { formatAmount } from '../../shared/amount.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { nodeFs, withFileLock, writeFileAtomic } from '../../shared/fs.js';

const { readFileSync } = nodeFs;

export const BUDGET_FILE = 'mcp-budget.json';
export const BUDGET_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * Spends a record holds at most inside the window, a bound on the file: a spend past it is refused,
 * never an older one dropped (that would free budget). Spends of nothing are not recorded.
 */
export const MAX_SPENDS = 10_000;
const MAX_FILE_BYTES = 4 * 1024 * 1024;

interface BudgetSpend {
  id: string;
  /** epoch ms when it was reserved (just before signing) */
  at: number;
  /** its value in US cents, as a decimal string */
  cents: string;
  /** the chain it was spent on (reconcile.ts chainOf) */
  chain: string;
}

interface BudgetStatus {
  limitCents: bigint;
  spentCents: bigint;
  leftCents: bigint;
  windowMs: number;
  /** when the oldest spend still counted leaves the window (more is left then); null when none */
  nextReleaseAt: number | null;
}

/** A spend recorded before signing: released only when nothing left the client. */
export interface BudgetReservation {
  release(): Promise<void>;
}

export interface SpendBudget {
  readonly limitCents: bigint;
  /** spent and left now on this budget's chain (throws when the record cannot be read) */
  status(): Promise<BudgetStatus>;
  /** refuses (BUDGET_EXCEEDED) a spend of `cents` that would go over what is left; records nothing */
  check(cents: bigint): Promise<void>;
  /** records a spend of `cents` before signing, or refuses it as check does, in one locked step */
  reserve(cents: bigint): Promise<BudgetReservation>;
}

interface BudgetOptions {
  limitCents: bigint;
  /** the chain this budget counts (spends on other chains are kept, not counted) */
  chain: string;
  now?: () => number;
  windowMs?: number;
}

/** US cents as dollars with exactly two decimals ("60.00"). */
export function usdText(cents: bigint): string {
  const [whole, fraction = ''] = formatAmount(cents, 2).split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}
const dollars = (cents: bigint): string => `$${usdText(cents)}`;

function isSpend(value: unknown): value is BudgetSpend {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Record<string, unknown>;
  return (
    typeof s.id === 'string' &&
    s.id.length <= 64 &&
    typeof s.at === 'number' &&
    Number.isSafeInteger(s.at) &&
    typeof s.cents === 'string' &&
    /^[0-9]{1,30}$/.test(s.cents) &&
    typeof s.chain === 'string' &&
    s.chain.length <= 100
  );
}

/** Opens the budget record in `dir` (nothing is read until it is asked). */
export function openBudget(dir: string, options: BudgetOptions): SpendBudget {
  const path = join(dir, BUDGET_FILE);
  const now = options.now ?? Date.now;
  const windowMs = options.windowMs ?? BUDGET_WINDOW_MS;
  const { limitCents, chain } = options;

  const unreadable = (why: string): AppError =>
    new AppError(
      ErrorCode.CONFIG_ERROR,
      `nothing was signed: the spending budget record ${path} ${why}, so what is left of the budget cannot be known; the person must repair or remove it`,
      { details: { path } },
    );

  function read(): BudgetSpend[] {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw unreadable(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (text.length > MAX_FILE_BYTES) throw unreadable('is too large');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw unreadable('is not valid JSON');
    }
    const file = parsed as { version?: unknown; spends?: unknown };
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      file.version !== 1 ||
      !Array.isArray(file.spends) ||
      !file.spends.every(isSpend)
    )
      throw unreadable('is not a budget record');
    return file.spends;
  }

  /** The spends still counted at `at`: this chain's, inside the window (a future time counts too). */
  const counted = (spends: readonly BudgetSpend[], at: number): BudgetSpend[] =>
    spends.filter((s) => s.chain === chain && s.at > at - windowMs);

  function statusOf(spends: readonly BudgetSpend[], at: number): BudgetStatus {
    const live = counted(spends, at);
    const spentCents = live.reduce((sum, s) => sum + BigInt(s.cents), 0n);
    const oldest = live.reduce<number | null>(
      (min, s) => (min === null || s.at < min ? s.at : min),
      null,
    );
    return {
      limitCents,
      spentCents,
      leftCents: spentCents >= limitCents ? 0n : limitCents - spentCents,
      windowMs,
      nextReleaseAt: oldest === null ? null : oldest + windowMs,
    };
  }

  function refuseOver(status: BudgetStatus, cents: bigint): void {
    // a value below nothing is no value a plan can have: refused, never taken off the sum
    if (cents < 0n)
      throw new AppError(
        ErrorCode.BUDGET_EXCEEDED,
        'nothing was signed: the plan was valued below nothing, so the budget cannot count it',
      );
    if (status.spentCents + cents <= limitCents) return;
    const hours = Math.round(windowMs / 3_600_000);
    throw new AppError(
      ErrorCode.BUDGET_EXCEEDED,
      `nothing was signed: this plan moves about ${dollars(cents)}, and only ${dollars(status.leftCents)} of the ${dollars(limitCents)} budget for ${hours} h is left (${dollars(status.spentCents)} spent)${status.nextReleaseAt === null ? '' : `; more is left from ${new Date(status.nextReleaseAt).toISOString()}`}`,
      {
        details: {
          valueUsd: usdText(cents),
          budgetUsd: usdText(limitCents),
          spentUsd: usdText(status.spentCents),
          leftUsd: usdText(status.leftCents),
          windowHours: hours,
          nextReleaseAt:
            status.nextReleaseAt === null ? null : new Date(status.nextReleaseAt).toISOString(),
        },
      },
    );
  }

  function write(spends: readonly BudgetSpend[], at: number): void {
    // spends past the window are no longer counted anywhere: dropped
    const kept = spends.filter((s) => s.at > at - windowMs);
    writeFileAtomic(path, `${JSON.stringify({ version: 1, spends: kept }, null, 2)}\n`, 0o600);
  }

  const locked = <T>(work: () => T): Promise<T> =>
    withFileLock(path, work, { code: ErrorCode.CONFIG_ERROR, what: 'the spending budget' });

  return {
    limitCents,
    status: () => locked(() => statusOf(read(), now())),
    check: (cents) =>
      locked(() => {
        refuseOver(statusOf(read(), now()), cents);
      }),
    reserve: (cents) =>
      locked(() => {
        const at = now();
        const spends = read();
        refuseOver(statusOf(spends, at), cents);
        // a spend of nothing changes no sum: not recorded (it would only crowd the record)
        if (cents === 0n) return { release: () => Promise.resolve() };
        if (spends.filter((s) => s.at > at - windowMs).length >= MAX_SPENDS)
          throw new AppError(
            ErrorCode.BUDGET_EXCEEDED,
            `nothing was signed: the budget's record holds ${MAX_SPENDS} spends of the last ${Math.round(windowMs / 3_600_000)} h, its most; more can be spent as the oldest leave it`,
          );
        const id = randomUUID();
        write([...spends, { id, at, cents: cents.toString(), chain }], at);
        return {
          release: () =>
            locked(() => {
              const current = read();
              if (current.some((s) => s.id === id))
                write(
                  current.filter((s) => s.id !== id),
                  now(),
                );
            }),
        };
      }),
  };
}
