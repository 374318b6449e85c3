/**
 * One plan model (docs/architecture.md "One plan model"): the plan document (its `legs`
 * included) and a receipt as lines — what leaves, what arrives, the bounds (at least, at most),
 * the recipients, the fees and gas, the terms a person consents to (a position as it is left,
 * the health factor, the acknowledgments) — each a kind of line, its exact amounts (bigint base
 * units with their token and decimals) and its words. Every face renders these lines and only
 * styles them (the headless text, the app's review and receipt, the tool server's question), so
 * no face can show less than another. The words hold every amount exactly (shared/amount.ts
 * formatAmount, never rounded). Pure: no I/O.
 */
import { formatAmount } from '../../../shared/amount.js';
import { sameAddress } from '../../../shared/tokens.js';
import type { LegAmount, LegView } from './legs/types.js';
import { spendWords } from './spend-words.js';
import type { PlanDocument, PlanSwapView, TokenRef } from './document.js';
import type { ExecutionResult } from './pipeline.js';

/**
 * What a line is:
 * - `swap`: an exchange, the amount that leaves exactly and the minimum that arrives at least
 * - `leaves`: leaves the wallet exactly (a send, a stake, a supply, a deposit, a repayment)
 * - `at-most`: a bound on what leaves (repay all, close: the debt plus a margin for interest)
 * - `arrives` / `at-least`: arrives exactly / at least (a guaranteed minimum)
 * - `expected`: what a swap's quote expects (not guaranteed), with its service fee (taken from
 *   the output) and price impact
 * - `gas`: the transaction's gas; `total`: what leaves of one token in all (with the gas at most)
 * - `position`: a staking or lending position changed; `term`: a fact consented to beyond what
 *   moves (a position as it is left, its health factor, an exit window)
 * - `acknowledgment`: a risk the person must accept explicitly
 * - receipts: `change` (a balance change the transaction made), `note`
 */
type PlanLineKind =
  | 'swap'
  | 'leaves'
  | 'at-most'
  | 'arrives'
  | 'at-least'
  | 'expected'
  | 'gas'
  | 'total'
  | 'position'
  | 'term'
  | 'acknowledgment'
  | 'change'
  | 'note';

/** An exact amount of a token: bigint base units, with the token's decimals and the exact decimal string. */
interface LineAmount {
  symbol: string;
  address: string;
  /** null only where the document does not say the token's decimals (the exact string stands) */
  decimals: number | null;
  baseUnits: bigint;
  /** formatAmount(baseUnits, decimals): every digit, never rounded */
  amount: string;
}

export interface PlanLine {
  kind: PlanLineKind;
  /** the leg (its index in the document's `legs`) the line is of; null: the plan as a whole */
  leg: number | null;
  /** the line in words, whole: every amount in it exact */
  words: string;
  /** the amounts the words say, in their order */
  amounts: LineAmount[];
  /** a third party the line pays (a send's recipient, a claim's reward address); null: none */
  to: string | null;
}

/** A line as the plan document carries it (JSON-safe: base units as a decimal string). */
export interface PlanLineJson extends Omit<PlanLine, 'amounts'> {
  amounts: Array<Omit<LineAmount, 'baseUnits'> & { baseUnits: string }>;
}

/** The tokens a document's amounts are of, by address: where each amount's decimals come from. */
type TokenBook = ReadonlyArray<Pick<TokenRef, 'symbol' | 'address'> & { decimals: number | null }>;

const said = (a: LineAmount): string => `${a.amount} ${a.symbol}`;

function lineAmount(
  baseUnits: bigint,
  token: Pick<TokenRef, 'symbol' | 'address' | 'decimals'>,
): LineAmount {
  return {
    symbol: token.symbol,
    address: token.address,
    decimals: token.decimals,
    baseUnits,
    amount: formatAmount(baseUnits, token.decimals),
  };
}

const known = (book: TokenBook): Array<Pick<TokenRef, 'symbol' | 'address' | 'decimals'>> =>
  book.flatMap((t) => (t.decimals === null ? [] : [{ ...t, decimals: t.decimals }]));

/** A leg's amount with its token's decimals (the book holds every token a plan moves). */
function fromLeg(a: LegAmount, book: TokenBook): LineAmount {
  const token = known(book).find((t) => sameAddress(t.address, a.tokenAddress));
  const baseUnits = BigInt(a.baseUnits);
  // the document's own exact string stands when the book lacks the token (never rounded)
  if (token === undefined)
    return {
      symbol: a.token,
      address: a.tokenAddress,
      decimals: null,
      baseUnits,
      amount: a.amount,
    };
  return lineAmount(baseUnits, token);
}

const line = (
  kind: PlanLineKind,
  leg: number | null,
  words: string,
  amounts: LineAmount[] = [],
  to: string | null = null,
): PlanLine => ({ kind, leg, words, amounts, to });

function swapLines(
  view: Extract<LegView, { type: 'swap' }>,
  i: number,
  quote: PlanSwapView | undefined,
  book: TokenBook,
): PlanLine[] {
  const sell = fromLeg(view.sell, book);
  const minimum = fromLeg(view.minimum, book);
  const expected = fromLeg(view.expected, book);
  const lines = [
    line('swap', i, `swap ${said(sell)} → at least ${said(minimum)}`, [sell, minimum]),
  ];
  if (quote === undefined) {
    lines.push(line('expected', i, `expected ${said(expected)} (not guaranteed)`, [expected]));
    return lines;
  }
  const impact =
    quote.priceImpact === null
      ? 'unknown'
      : `${quote.priceImpact.percent}${quote.priceImpactWarning === 'very-high' ? ' (VERY HIGH)' : quote.priceImpactWarning === 'high' ? ' (HIGH)' : ''}`;
  const fee = lineAmount(BigInt(quote.fee.amount.baseUnits), quote.to);
  // the aggregator's route (made printable where it entered): each split's share and hops
  const route = quote.route
    .map(
      (split) =>
        `${split.percent} ${[split.hops[0]?.from ?? '?', ...split.hops.map((h) => h.to)].join(' → ')}`,
    )
    .join(', ');
  lines.push(
    line(
      'expected',
      i,
      `expected ${said(expected)}, service fee ${quote.fee.percent} ${said(fee)}, price impact ${impact}${route === '' ? '' : `, route ${route}`}`,
      [expected, fee],
    ),
  );
  return lines;
}

/** Each leg's lines: every leg type is named (a new one fails typecheck here). */
function legLines(
  view: LegView,
  i: number,
  quote: PlanSwapView | undefined,
  book: TokenBook,
): PlanLine[] {
  switch (view.type) {
    case 'swap':
      return swapLines(view, i, quote, book);
    case 'transfer': {
      const a = fromLeg(view.amount, book);
      return [line('leaves', i, `send ${said(a)} to ${view.to}`, [a], view.to)];
    }
    case 'stake': {
      const a = fromLeg(view.amount, book);
      const how = view.entry === 'enter' ? 'a first stake in its pool' : 'added to your stake';
      return [line('leaves', i, `stake ${said(a)} with ${view.validator.name} (${how})`, [a])];
    }
    case 'unstake-intent': {
      const a = fromLeg(view.amount, book);
      return view.cancel
        ? [line('position', i, `cancel the exit from ${view.validator.name}`)]
        : [line('position', i, `start exiting ${said(a)} from ${view.validator.name}`, [a])];
    }
    case 'unstake': {
      const a = fromLeg(view.amount, book);
      return [
        line(
          'arrives',
          i,
          `arrives in the wallet: ${said(a)} (exited from ${view.validator.name})`,
          [a],
        ),
      ];
    }
    case 'claim': {
      const a = fromLeg(view.amount, book);
      return [
        line(
          'at-least',
          i,
          `claim at least ${said(a)} of rewards from ${view.validator.name}, paid to ${view.rewardAddress}`,
          [a],
          view.rewardAddress,
        ),
      ];
    }
    case 'supply': {
      const a = fromLeg(view.amount, book);
      return [line('leaves', i, `supply ${said(a)} to the Vesu ${view.pool.name} pool`, [a])];
    }
    case 'withdraw': {
      const pool = `the Vesu ${view.pool.name} pool`;
      if (view.amount !== undefined) {
        const a = fromLeg(view.amount, book);
        return [
          line('arrives', i, `arrives in the wallet: ${said(a)} (withdrawn from ${pool})`, [a]),
        ];
      }
      if (view.minimum === undefined) return [];
      const m = fromLeg(view.minimum, book);
      return [
        line(
          'at-least',
          i,
          `arrives in the wallet: at least ${said(m)} (all withdrawn from ${pool})`,
          [m],
        ),
      ];
    }
    case 'position':
      return positionLines(view, i, book);
  }
}

function positionLines(
  view: Extract<LegView, { type: 'position' }>,
  i: number,
  book: TokenBook,
): PlanLine[] {
  const pool = `the Vesu ${view.pool.name} pool`;
  const lines: PlanLine[] = [];
  if (view.deposit !== undefined) {
    const a = fromLeg(view.deposit, book);
    lines.push(line('leaves', i, `deposit ${said(a)} as collateral in ${pool}`, [a]));
  }
  if (view.repay !== undefined) {
    if (view.repay.all) {
      const max = fromLeg(view.repay.maximum, book);
      lines.push(
        line('at-most', i, `repay all the ${view.debtToken.symbol} debt: at most ${said(max)}`, [
          max,
        ]),
      );
    } else {
      const a = fromLeg(view.repay.amount, book);
      lines.push(line('leaves', i, `repay ${said(a)} of the debt`, [a]));
    }
  }
  // the same words as the leg's terms (position.ts), so a term that says it is not said twice
  if (view.borrow !== undefined) {
    const a = fromLeg(view.borrow, book);
    lines.push(line('arrives', i, `arrives in the wallet: ${said(a)} (borrowed)`, [a]));
  }
  if (view.withdrawCollateral !== undefined) {
    const w = view.withdrawCollateral;
    const a = fromLeg(w.all ? w.minimum : w.amount, book);
    lines.push(
      line(
        w.all ? 'at-least' : 'arrives',
        i,
        `arrives in the wallet: ${w.all ? 'at least ' : ''}${said(a)} (collateral withdrawn)`,
        [a],
      ),
    );
  }
  return lines;
}

function gasLine(doc: Pick<PlanDocument, 'gas'>): PlanLine {
  const gas = doc.gas;
  if (gas.mode === 'sponsored') return line('gas', null, 'gas: sponsored (you pay no gas)');
  if (gas.mode === 'unknown') return line('gas', null, 'gas: not estimated');
  const max = lineAmount(BigInt(gas.maxFee.baseUnits), gas.token);
  const estimated =
    gas.estimatedFee === null
      ? undefined
      : lineAmount(BigInt(gas.estimatedFee.baseUnits), gas.token);
  return line(
    'gas',
    null,
    `gas: at most ${said(max)}${estimated === undefined ? '' : `, about ${said(estimated)}`} (the unused part is refunded)`,
    estimated === undefined ? [max] : [max, estimated],
  );
}

/** The part of a document the lines are made of (the document itself, before its `lines`). */
type LinesSource = Pick<
  PlanDocument,
  'legs' | 'swaps' | 'spend' | 'terms' | 'gas' | 'acknowledgments'
>;

/**
 * The plan's lines, in order: each leg's (in call order), the terms not already said, what
 * leaves of each token in all (with the gas at most; "at most" a bound; the balance read before)
 * or that nothing does, the gas, and what must be acknowledged. `book`: the tokens the plan moves (their decimals).
 */
export function buildPlanLines(doc: LinesSource, book: TokenBook): PlanLine[] {
  let swapAt = 0;
  const lines = doc.legs.flatMap((view, i) =>
    legLines(view, i, view.type === 'swap' ? doc.swaps[swapAt++] : undefined, book),
  );
  const already = new Set(lines.map((l) => l.words));
  for (const term of doc.terms) if (!already.has(term)) lines.push(line('term', null, term));
  for (const s of doc.spend) {
    if (s.total.baseUnits === '0') continue;
    const amount = lineAmount(BigInt(s.amount.baseUnits), s.token);
    const gas = lineAmount(BigInt(s.gas.baseUnits), s.token);
    const expected = s.expected === null ? [] : [lineAmount(BigInt(s.expected.baseUnits), s.token)];
    const held = s.balance === null ? undefined : lineAmount(BigInt(s.balance.baseUnits), s.token);
    lines.push(
      line(
        s.expected === null ? 'total' : 'at-most',
        null,
        `leaves the wallet: ${spendWords(s, false)}${gas.baseUnits > 0n ? ` (+ up to ${said(gas)} gas)` : ''}${held === undefined ? '' : `; the wallet holds ${said(held)}`}`,
        [
          amount,
          ...expected,
          ...(gas.baseUnits > 0n ? [gas] : []),
          ...(held === undefined ? [] : [held]),
        ],
      ),
    );
  }
  if (!lines.some((l) => l.kind === 'total' || l.kind === 'at-most'))
    lines.push(line('total', null, 'leaves the wallet: nothing'));
  lines.push(gasLine(doc));
  for (const a of doc.acknowledgments)
    lines.push(line('acknowledgment', null, `to acknowledge: ${a.reason}`));
  return lines;
}

/** The lines as the document carries them (JSON-safe). */
export const jsonLines = (lines: readonly PlanLine[]): PlanLineJson[] =>
  lines.map((l) => ({
    ...l,
    amounts: l.amounts.map((a) => ({ ...a, baseUnits: a.baseUnits.toString() })),
  }));

/** A plan document's lines, with their amounts as bigint base units again. */
export function planLines(doc: Pick<PlanDocument, 'lines'>): PlanLine[] {
  return doc.lines.map((l) => ({
    ...l,
    amounts: l.amounts.map((a) => ({ ...a, baseUnits: BigInt(a.baseUnits) })),
  }));
}

/**
 * An executed plan's lines: each balance change the transaction made, what each output brought
 * against the minimum confirmed, an exit's terms (what is exiting now, when it can be
 * withdrawn), the gas paid, the account deployed, a history that could not be written.
 */
export function receiptLines(result: ExecutionResult): PlanLine[] {
  const tx = result.transaction;
  const book: TokenBook = [
    ...tx.balanceChanges,
    ...result.lines.flatMap((l) => l.amounts),
    ...(result.gas.mode === 'default' ? [result.gas.token] : []),
  ];
  const of = (symbol: string, address: string | undefined, baseUnits: string, text: string) => {
    const token = known(book).find((t) =>
      address === undefined ? t.symbol === symbol : sameAddress(t.address, address),
    );
    return token === undefined
      ? {
          symbol,
          address: address ?? '',
          decimals: null,
          baseUnits: BigInt(baseUnits),
          amount: text,
        }
      : lineAmount(BigInt(baseUnits), token);
  };
  const lines: PlanLine[] = tx.balanceChanges
    .filter((c) => c.baseUnits !== '0')
    .map((c) => {
      const a = lineAmount(BigInt(c.baseUnits), c);
      return line('change', null, `${a.baseUnits > 0n ? '+' : ''}${said(a)}`, [a]);
    });
  // an exit's receipt says what is exiting now and when it can be withdrawn (the leg's terms)
  if (result.legs.length > 0 && result.legs.every((l) => l.type === 'unstake-intent'))
    lines.push(...result.terms.map((t) => line('term', null, t)));
  for (const r of tx.received) {
    const got = of(r.symbol, r.address, r.baseUnits, r.amount);
    const minimum = of(r.symbol, r.address, r.minimum.baseUnits, r.minimum.amount);
    lines.push(
      line('arrives', null, `received ${said(got)} (you confirmed at least ${said(minimum)})`, [
        got,
        minimum,
      ]),
    );
  }
  if (tx.feePaid === null) lines.push(line('gas', null, 'gas: sponsored'));
  else {
    const fee = of(tx.feePaid.symbol, undefined, tx.feePaid.baseUnits, tx.feePaid.amount);
    lines.push(line('gas', null, `gas paid: ${said(fee)}`, [fee]));
  }
  if (tx.deployedAccount)
    lines.push(line('note', null, 'your account was deployed with this transaction'));
  if (tx.historyWarning !== undefined)
    lines.push(line('note', null, `history not written: ${tx.historyWarning}`));
  return lines;
}
