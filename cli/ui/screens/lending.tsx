/**
 * Lending: the wallet's positions in the network's Vesu pool — each supply with its value, each
 * borrow with its collateral, debt, health factor and max LTV, and a warning line when a health
 * factor is below the safety margin (a stronger one at or below 1: it can be liquidated), read
 * again every REFRESH_MS while the screen is open and at once with Ctrl+R, so a falling price
 * shows without leaving the screen (docs/decisions.md "The Lending screen reads its positions
 * again") — and one
 * form for the lending actions the kinds table routes here (↑/↓ chooses), its fields the chosen
 * kind's declared parameters (kind-form.ts). Enter plans it through the core (checked, built, simulated; nothing signed)
 * and opens the one review every plan has: its headline carries the health factor before → after,
 * and it asks the typed word for the `low-health` acknowledgment when the core lists it
 * (docs/app.md "Lending").
 */
import { Box, Text, useWindowSize } from 'ink';
import { useContext, useState } from 'react';
import { formatAmount } from '../../../shared/amount.js';
import { HEALTH_MARGIN, healthLevelOfWords, ltvPercentOfWords } from '../../../shared/vesu.js';
import { ACTION_KINDS, kindsVia } from '../../core/actions/kinds.js';
import type { LendingDocument } from '../../core/lending.js';
import { type Liquidation, liquidationWords } from '../../core/liquidations.js';
import { ScreenRows, useUi } from '../context.js';
import { useKindFormKeys } from '../hooks/use-kind-form-keys.js';
import { usePlanReview } from '../hooks/use-plan-review.js';
import { LIVE_READ_MS, usePeriodicRead } from '../hooks/use-periodic-read.js';
import type { PlanRequest } from '../services.js';
import type { LendingForm } from '../state.js';
import { FieldLabel, LABEL_WIDTH, ReadStatus, Title, wrappedLines } from '../widgets/layout.js';
import { PlanStatus } from '../widgets/plan-status.js';
import {
  type Field,
  type FormSpec,
  type RendersAll,
  fieldsOf,
  formRequest,
  hintOf,
  labelOf,
  newForm,
  valueOf,
  withField,
} from './kind-form.js';
import { TextField } from '../widgets/text-field.js';

type Kind = LendingForm['kind'];

/** The actions this screen offers: the kinds table's, in its order (kinds.ts kindsVia). */
const KINDS = kindsVia('Lending');

/**
 * The form takes each lending kind's declared parameters (kind-form.ts): tokens and amounts; a
 * pool is not asked (the network's main one). A position's debt is typed where a supply's token
 * is: what was typed stays when the person changes action.
 */
export const LENDING_FORM: FormSpec = {
  types: ['token', 'amount', 'amount-or-all'],
  slots: { debt: 'token' },
};

/** A lending kind whose required parameters this form cannot render fails typecheck here. */
const rendersAll: RendersAll<'Lending', 'token' | 'amount' | 'amount-or-all'> = true;
void rendersAll;

/** The fields an action takes, in Tab order (a close: the position's two tokens only). */
export const fieldsFor = (kind: Kind): Field[] => fieldsOf(kind, LENDING_FORM);

/**
 * The declared token each of an action's amounts is in, by the amount's name: an action and its
 * inverse share them (supply ↔ withdraw, borrow ↔ repay, add ↔ withdraw collateral); a close
 * has none.
 */
export const amountsIn = (kind: Kind): Record<string, string | undefined> =>
  Object.fromEntries(
    fieldsFor(kind)
      .filter((f) => f.param.type === 'amount' || f.param.type === 'amount-or-all')
      .map((f) => [f.name, f.param.in]),
  );

/**
 * The form for another action: an amount stays only where the new action has the same amount in
 * the same declared token (an action's inverse: supply ↔ withdraw, borrow ↔ repay, add ↔ withdraw
 * collateral), else it is cleared — a typed 0.5 USDC must never become 0.5 ETH, nor a supply's 100
 * a borrow's. Passing through a close (no amount) clears it too, and the borrow's deposit goes
 * with any change of action: only a borrow has one. The cursor goes to the new action's first
 * field (docs/decisions.md "An app form's amount and its token").
 */
export function withKind(form: LendingForm, kind: Kind): LendingForm {
  const before = amountsIn(form.kind);
  const after = amountsIn(kind);
  const kept = (name: string): boolean =>
    kind === form.kind || (name in before && name in after && before[name] === after[name]);
  const cleared = KINDS.flatMap((k) => Object.keys(amountsIn(k)))
    .filter((name) => !kept(name))
    .map((name) => [LENDING_FORM.slots?.[name] ?? name, '']);
  return {
    ...form,
    kind,
    values: { ...form.values, ...Object.fromEntries(cleared) },
    focus: fieldsFor(kind)[0]?.slot ?? form.focus,
  };
}

/** The lending screen's request as the services port's plan request: the declared parameters. */
export const lendingRequest = (form: LendingForm, slippageBps: number): PlanRequest =>
  formRequest(form, LENDING_FORM, slippageBps);

/** "1.2": the margin as the warning words it. */
const MARGIN_WORDS = formatAmount(HEALTH_MARGIN, 18);

/** The label column: LABEL_WIDTH, or room for "Deposit (USDC)" and a space. */
const LABEL_COLUMN = Math.max(LABEL_WIDTH, 'Deposit (USDC)'.length + 1);

/** A line of the positions: its words and how it is coloured. */
interface PositionLine {
  text: string;
  tone?: 'warning' | 'danger' | 'muted';
}

/**
 * The positions as lines, in full — each supply; each borrow with its max LTV and liquidation
 * price, and a warning line under it below the margin — or compact: the supplies of a pool on one
 * line, and each borrow on one line with its warning folded in (the figures a person acts on: the
 * debt, the collateral, the health factor and the price at which it is liquidated; not the max
 * LTV).
 */
export function positionLines(
  doc: LendingDocument & { liquidations?: Liquidation[] },
  compact: boolean,
  rateForm: 'full' | 'compact' | 'none' = compact ? 'compact' : 'full',
): PositionLine[] {
  const rates = rateForm === 'none' ? [] : rateLines(doc, rateForm === 'compact');
  // a liquidation, in full or compact: what was taken and what is left (cli/core/liquidations.ts)
  const liquidated = (doc.liquidations ?? []).map((l): PositionLine => ({
    text: `✖ ${l.collateral.token}/${l.debt.token} in ${l.pool} ${liquidationWords(l)}`,
    tone: 'danger',
  }));
  if (doc.supplied.length === 0 && doc.borrows.length === 0)
    return [{ text: 'No positions.', tone: 'muted' }, ...liquidated, ...rates];
  const worth = (s: LendingDocument['supplied'][number]): string =>
    `${s.amount} ${s.token}${s.valueUsd === null ? ' (no price)' : ` ($${s.valueUsd})`}`;
  const supplies: PositionLine[] = compact
    ? [...new Set(doc.supplied.map((s) => s.pool))].map((pool) => ({
        text: `Supplied in ${pool}: ${doc.supplied
          .filter((s) => s.pool === pool)
          .map(worth)
          .join(', ')}`,
      }))
    : doc.supplied.map((s) => ({ text: `Supplied ${worth(s)} in ${s.pool}` }));
  const borrows = doc.borrows.flatMap((b): PositionLine[] => {
    const level = healthLevelOfWords(b.healthFactor);
    // collateral with no debt (all repaid, or added before a borrow) is not "Borrowed 0"
    const head =
      b.debt.baseUnits === '0'
        ? `Collateral ${b.collateral.amount} ${b.collateral.token} in ${b.pool}, no ${b.debt.token} borrowed: health factor —`
        : `Borrowed ${b.debt.amount} ${b.debt.token} against ${b.collateral.amount} ${b.collateral.token} in ${b.pool}: health factor ${b.healthFactor ?? '—'}`;
    const at =
      b.liquidationPrice === null
        ? undefined
        : `liquidation at ${b.collateral.token} $${b.liquidationPrice}`;
    if (compact) {
      if (level === 'liquidatable')
        return [{ text: `${head} ✖ at or below 1: can be liquidated now`, tone: 'danger' }];
      if (level === 'low')
        return [
          {
            text: `${head} ⚠ below ${MARGIN_WORDS}: ${at ?? 'close to liquidation'}`,
            tone: 'warning',
          },
        ];
      return [{ text: at === undefined ? head : `${head}, ${at}` }];
    }
    const line = {
      text: `${head}, max LTV ${ltvPercentOfWords(b.maxLtv)}${at === undefined ? '' : `, ${at}`}`,
    };
    if (level === 'liquidatable')
      return [
        line,
        {
          text: `✖ Health factor ${b.healthFactor} is at or below 1: this position can be liquidated now — repay or add collateral.`,
          tone: 'danger',
        },
      ];
    if (level === 'low')
      return [
        line,
        {
          text: `⚠ Health factor ${b.healthFactor} is below ${MARGIN_WORDS}: close to liquidation — consider repaying or adding collateral.`,
          tone: 'warning',
        },
      ];
    return [line];
  });
  return [...supplies, ...borrows, ...liquidated, ...rates];
}

/**
 * What supplying earns and borrowing costs in each asset the pool lists, as the core words it
 * (percent, 2 decimals, rounded down: cli/core/lending-rates.ts): a line per asset, or one line
 * of APYs when compact.
 */
function rateLines(doc: LendingDocument, compact: boolean): PositionLine[] {
  if (doc.markets.length === 0) return [];
  if (compact)
    return [...new Set(doc.markets.map((m) => m.pool))].map((pool) => ({
      text: `Rates in ${pool} (APY, supply/borrow): ${doc.markets
        .filter((m) => m.pool === pool)
        .map((m) => `${m.token} ${m.supplyApy}/${m.borrowApy} %`)
        .join(', ')}`,
      tone: 'muted' as const,
    }));
  return doc.markets.map((m) => ({
    text: `${m.token} in ${m.pool}: supplying earns ${m.supplyApy} % APY (${m.supplyApr} % APR), borrowing costs ${m.borrowApy} % APY (${m.borrowApr} % APR); utilisation ${m.utilization} %`,
    tone: 'muted' as const,
  }));
}

/**
 * The rows the form takes below the positions at most: the title, the refresh line, a gap, the
 * action, four fields, a gap, and a refusal in words with what to do next (four lines). The
 * positions get what is left of the screen, so the form and a refusal under it are never cut
 * off at 80×24 (the frame clips the screen's bottom).
 */
const FORM_ROWS = 13;

/**
 * The positions in full when they fit in `rows` lines of `width` columns, else compact (which
 * may still not fit: then the frame clips the screen's bottom, as on any screen). The rates give
 * way first: in full, then on one line, then left out, before the positions go compact.
 */
function fitPositions(
  doc: (LendingDocument & { liquidations?: Liquidation[] }) | undefined,
  width: number,
  rows: number,
): { lines: PositionLine[]; compact: boolean } {
  if (doc === undefined) return { lines: [], compact: false };
  const forms = [
    [false, 'full'],
    [false, 'compact'],
    [false, 'none'],
    [true, 'compact'],
    [true, 'none'],
  ] as const;
  for (const [compact, rates] of forms) {
    const lines = positionLines(doc, compact, rates);
    if (lines.reduce((n, line) => n + wrappedLines(line.text, width), 0) <= rows)
      return { lines, compact };
  }
  return { lines: positionLines(doc, true, 'none'), compact: true };
}

/** How often an open Lending screen reads the positions again (hooks/use-periodic-read.ts). */
export const REFRESH_MS = LIVE_READ_MS;

export function LendingScreen({ initial }: { initial?: LendingForm | undefined }) {
  const { services, theme } = useUi();
  const rows = useContext(ScreenRows);
  const { columns } = useWindowSize();
  const [form, setForm] = useState<LendingForm>(() => initial ?? newForm(KINDS, LENDING_FORM));
  // the positions last read: kept on screen while they are read again (no flicker), and after a
  // failed read, which is said above them; every REFRESH_MS unless the run's test knob says
  const everyMs = services.liveReadMs ?? REFRESH_MS;
  const { loading, shown, read } = usePeriodicRead<
    LendingDocument & { liquidations?: Liquidation[] }
  >(services.lending?.bind(services), everyMs);
  const review = usePlanReview();
  const set = (patch: Partial<LendingForm>): void => setForm((f) => ({ ...f, ...patch }));

  const fields = fieldsFor(form.kind);
  const cycle = (step: number): void => {
    const at = (KINDS.indexOf(form.kind) + step + KINDS.length) % KINDS.length;
    setForm((f) => withKind(f, KINDS[at] ?? f.kind));
  };
  // what Enter would plan now: a refusal is said only while the form still asks for it
  const request = lendingRequest(form, services.settings().slippageBps);
  const labels = fields.map((f) => labelOf(form, LENDING_FORM, f));
  // one label column, as wide as the longest label and a space; room for a usual symbol from the
  // start, so typing the token does not move the values
  const labelWidth = Math.max(LABEL_COLUMN, ...labels.map((l) => l.length + 1));
  useKindFormKeys({
    form,
    spec: LENDING_FORM,
    cycle,
    focus: (slot) => set({ focus: slot }),
    request,
    returnTo: { name: 'lending', form },
    review,
    reload: read,
  });
  const doc = shown;
  const positions = fitPositions(doc, Math.max(20, columns), rows - FORM_ROWS);

  return (
    <Box flexDirection="column">
      <Title>Lending</Title>
      <ReadStatus loading={loading} shown={doc !== undefined} busy="reading positions…" />
      {doc !== undefined ? (
        <Box flexDirection="column">
          {positions.lines.map((line, i) => (
            <Text
              key={i}
              color={
                line.tone === 'danger'
                  ? theme.danger
                  : line.tone === 'warning'
                    ? theme.warning
                    : line.tone === 'muted'
                      ? theme.muted
                      : undefined
              }
              bold={line.tone === 'danger'}
              wrap="wrap"
            >
              {line.text}
            </Text>
          ))}
          <Text color={theme.muted} wrap="truncate-end">
            read again every {everyMs / 1000} s while open
            {positions.compact ? ' · a taller window shows each in full' : ''}
            {loading.status === 'running' ? ' · reading…' : ''}
          </Text>
        </Box>
      ) : null}
      <Box marginTop={1}>
        <FieldLabel label="Action" focused={false} width={labelWidth} />
        <Text>↑ {ACTION_KINDS[form.kind].label} ↓</Text>
      </Box>
      {fields.map((f, i) => (
        <Box key={f.slot}>
          <FieldLabel label={labels[i] ?? ''} focused={form.focus === f.slot} width={labelWidth} />
          <TextField
            value={valueOf(form, f.slot)}
            onChange={(value) => setForm((now) => withField(now, LENDING_FORM, f.slot, value))}
            focused={form.focus === f.slot && !review.running}
            maxLength={40}
            placeholder={hintOf(f)}
          />
        </Box>
      ))}
      <Box marginTop={1} flexDirection="column">
        <PlanStatus
          review={review}
          busy="reading the position, building and simulating…"
          // a refusal is said while the form still asks for what was refused: a change clears it
          failure={review.failureWhile(request)}
        />
      </Box>
    </Box>
  );
}
