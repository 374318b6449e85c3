/**
 * Portfolio: the allocation drawn as bars with each share (to exactly 100.00 %), the wallet's
 * total, then the positions the core reads beside it (staked, exiting, unclaimed, supplied,
 * collateral, debt with its health factor), the net total and a warning for a borrow close to
 * or at liquidation — the same Portfolio document `finance-tui portfolio` prints
 * (cli/core/portfolio.ts) — and the price age, refreshed live while the screen is open (every REFRESH_MS; `r` now, past the
 * price cache); Enter opens Rebalance. Rebalance: the targets as typed ("50 ETH, 30 USDC, 20 STRK"), the band, and
 * whether unlisted tokens are sold; Enter plans it — the core's `rebalance` action, the same
 * pipeline as every swap — and opens the one review every plan has. "Already balanced" is said
 * here, nothing to sign.
 */
import { Box, Text } from 'ink';
import { useCallback, useEffect, useState } from 'react';
import { isAppError } from '../../../shared/errors.js';
import { ACTION_KINDS } from '../../core/actions/kinds.js';
import { liquidationWords } from '../../core/liquidations.js';
import { useUi } from '../context.js';
import { describeFailure } from '../failure.js';
import { useKeys } from '../hooks/use-keys.js';
import { usePlanReview } from '../hooks/use-plan-review.js';
import { useTask } from '../hooks/use-task.js';
import type { PlanRequest, Portfolio, RebalanceView } from '../services.js';
import { healthNote } from '../../../shared/vesu.js';
import { AllocationBars, RebalanceTable } from '../widgets/allocation.js';
import { Busy, FailureLine, Title } from '../widgets/layout.js';
import { PlanStatus } from '../widgets/plan-status.js';
import { TextField } from '../widgets/text-field.js';

/** How often an open Portfolio screen refreshes: the price cache's 20 s. */
export const REFRESH_MS = 20_000;

export function PortfolioScreen() {
  const { services, dispatch, theme } = useUi();
  const [current, load] = useTask<Portfolio>();
  const [shown, setShown] = useState<Portfolio | undefined>(undefined);
  const refresh = useCallback(
    (fresh: boolean): void =>
      void load((signal) => services.portfolio({ signal, fresh })).then((p) => p && setShown(p)),
    [load, services],
  );
  useEffect(() => {
    refresh(false);
    const timer = setInterval(() => refresh(false), REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh]);
  useKeys(
    {
      submit: () => dispatch({ type: 'open', screen: { name: 'rebalance' } }),
      refresh: () => refresh(true),
      back: () => dispatch({ type: 'back' }),
    },
    { wording: { submit: 'rebalance', refresh: 'refresh prices' } },
  );
  const failure = current.status === 'failed' ? describeFailure(current.error) : undefined;
  return (
    <Box flexDirection="column">
      <Title>
        Portfolio{' '}
        {shown ? (
          <Text color={theme.muted}>({shown.sandbox ? 'sandbox' : shown.network})</Text>
        ) : null}
      </Title>
      {shown === undefined && current.status !== 'failed' ? (
        <Busy label="reading balances and prices…" />
      ) : null}
      {shown ? (
        <>
          <AllocationBars portfolio={shown} />
          <Text wrap="wrap">
            Total <Text bold>${shown.total.usd}</Text>
            <Text color={theme.muted}>
              {' '}
              wallet tokens{shown.unpriced.length > 0 ? ' (priced tokens only)' : ''}
            </Text>
          </Text>
          <Positions portfolio={shown} />
          {shown.unpriced.map((u) => (
            <Text key={u.symbol} color={theme.warning} wrap="wrap">
              {u.symbol}: {u.reason}
            </Text>
          ))}
          {(shown.liquidations ?? []).map((l) => (
            <Text key={l.transactionHash} color={theme.danger} wrap="wrap">
              {l.collateral.token}/{l.debt.token} {liquidationWords(l)}
            </Text>
          ))}
          {shown.notes.map((n) => (
            <Text key={n} color={theme.muted} wrap="wrap">
              note: {n}
            </Text>
          ))}
          <Text color={theme.muted} wrap="truncate-end">
            {shown.pricing.ageSeconds === null
              ? 'no prices'
              : `prices ${shown.pricing.ageSeconds} s old`}{' '}
            · refreshed every {REFRESH_MS / 1000} s while open
            {current.status === 'running' ? ' · refreshing…' : ''}
          </Text>
        </>
      ) : null}
      {failure ? <FailureLine failure={failure} hint="press r to try again" /> : null}
    </Box>
  );
}

/** A signed value in dollars: "-$5000.00" for a debt; "(no price)" unpriced. */
const dollars = (value: { usd: string } | null): string =>
  value === null
    ? '(no price)'
    : value.usd.startsWith('-')
      ? `-$${value.usd.slice(1)}`
      : `$${value.usd}`;

/** What each kind of position line is called. */
const KIND_WORDS: Record<NonNullable<Portfolio['positions']>[number]['kind'], string> = {
  staked: 'Staked',
  exiting: 'Exiting',
  'unclaimed-rewards': 'Unclaimed rewards',
  supplied: 'Supplied',
  collateral: 'Collateral',
  debt: 'Debt',
};

/**
 * The positions, each on its own line (wrapped, never cut: an amount has every digit), a debt
 * with its health factor and what it means (shared/vesu.ts healthNote), then the net total and a
 * warning for each borrow at or close to liquidation.
 */
function Positions({ portfolio }: { portfolio: Portfolio }) {
  const { theme } = useUi();
  const positions = portfolio.positions ?? [];
  if (positions.length === 0) return null;
  const risky = positions
    .filter((p) => p.kind === 'debt')
    .map((p) => ({ p, ...healthNote(p.healthFactor ?? null) }))
    .filter((h) => h.level !== 'ok');
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>Positions</Text>
      {positions.map((p, i) => {
        const health = p.kind === 'debt' ? healthNote(p.healthFactor ?? null) : undefined;
        return (
          <Box key={`${p.kind}-${p.symbol}-${i}`} flexDirection="column">
            <Text wrap="wrap">
              {KIND_WORDS[p.kind]} {p.amount} {p.symbol}
              <Text color={theme.muted}>
                {' '}
                {dollars(p.value)} · {p.source}
              </Text>
            </Text>
            {health === undefined ? null : (
              <Text
                wrap="wrap"
                color={
                  health.level === 'liquidatable'
                    ? theme.danger
                    : health.level === 'low'
                      ? theme.warning
                      : undefined
                }
              >
                {'  '}health factor {p.healthFactor ?? '—'}
                {health.note === '' ? '' : ` (${health.note})`}
              </Text>
            )}
          </Box>
        );
      })}
      {portfolio.net === undefined ? null : (
        <Text wrap="wrap">
          Net <Text bold>${portfolio.net.usd}</Text>
          <Text color={theme.muted}> wallet + positions, debt subtracted</Text>
        </Text>
      )}
      {risky.map(({ p, level }, i) => (
        <Text
          key={`risk-${i}`}
          color={level === 'liquidatable' ? theme.danger : theme.warning}
          wrap="wrap"
        >
          {level === 'liquidatable'
            ? `✖ The ${p.symbol} debt in ${p.source} can be liquidated now: repay or add collateral (Lending).`
            : `⚠ The ${p.symbol} debt in ${p.source} is close to liquidation: consider repaying or adding collateral (Lending).`}
        </Text>
      ))}
    </Box>
  );
}

type Field = 'target' | 'band';

export function RebalanceScreen({
  initial,
}: {
  initial?: { target: string; band: string; sellUnlisted: boolean } | undefined;
}) {
  const { services, state: app, dispatch, theme } = useUi();
  const [form, setForm] = useState(initial ?? { target: '', band: '2', sellUnlisted: false });
  const [focus, setFocus] = useState<Field>('target');
  const review = usePlanReview();
  // "already balanced" with the request it answered: said only while the form still asks for it
  const [balanced, setBalanced] = useState<{ for: string; view: RebalanceView } | undefined>(
    undefined,
  );
  const session = app.session;
  const running = review.running;
  // what Enter would plan now: a refusal is said only while the form still asks for it
  const band = form.band.trim();
  const request: PlanRequest = {
    kind: 'rebalance',
    slippageBps: services.settings().slippageBps,
    params: {
      target: form.target,
      ...(band === '' ? {} : { band }),
      sellUnlisted: form.sellUnlisted,
    },
  };
  const shownBalanced = balanced?.for === JSON.stringify(request) ? balanced.view : undefined;

  useKeys(
    {
      nextField: () => setFocus((f) => (f === 'target' ? 'band' : 'target')),
      toggle: () => setForm((f) => ({ ...f, sellUnlisted: !f.sellUnlisted })),
      submit: () => {
        if (!session || form.target.trim() === '') return;
        setBalanced(undefined);
        const asked = JSON.stringify(request);
        review.plan(
          request,
          { name: 'rebalance', form },
          {
            // the kind's declared answer (already in its band): said here, nothing to review
            settle: (error) => {
              if (!isAppError(error) || error.code !== ACTION_KINDS.rebalance.answers?.code)
                return false;
              setBalanced({ for: asked, view: error.details?.rebalance as RebalanceView });
              return true;
            },
          },
        );
      },
      back: () => dispatch({ type: 'back' }),
    },
    {
      isActive: !running,
      wording: { submit: 'review', toggle: form.sellUnlisted ? 'keep unlisted' : 'sell unlisted' },
    },
  );
  return (
    <Box flexDirection="column">
      <Title>Rebalance</Title>
      <Box>
        <Text>{'Target  '}</Text>
        <TextField
          value={form.target}
          onChange={(target) => setForm((f) => ({ ...f, target }))}
          focused={focus === 'target' && !running}
          maxLength={200}
          placeholder="50 ETH, 30 USDC, 20 STRK"
        />
      </Box>
      <Box>
        <Text>{'Band    '}</Text>
        <TextField
          value={form.band}
          onChange={(band) => setForm((f) => ({ ...f, band }))}
          focused={focus === 'band' && !running}
          accept={/[0-9.]/}
          maxLength={6}
          placeholder="2"
        />
        <Text color={theme.muted}> percentage points: no trade while every token is within it</Text>
      </Box>
      <Text>
        Unlisted tokens{' '}
        <Text bold>
          {form.sellUnlisted
            ? '[x] sold (shares of the whole wallet)'
            : '[ ] kept (shares of the named tokens)'}
        </Text>
      </Text>
      <Box marginTop={1} flexDirection="column">
        {shownBalanced ? (
          <>
            <Text color={theme.success}>
              Already balanced: every token is within the band of its target. Nothing to sign.
            </Text>
            <RebalanceTable view={shownBalanced} />
          </>
        ) : null}
        <PlanStatus
          review={review}
          busy="pricing, planning and simulating the rebalance…"
          // a refusal is said while the form still asks for what was refused: a change clears it
          failure={review.failureWhile(request)}
        />
      </Box>
    </Box>
  );
}
