/**
 * Trade: token pickers, amount (with the balance and a "max" key), slippage presets or custom;
 * a live quote that follows the form; Enter plans the trade and opens the review — at once when
 * the quote is in, else as soon as the quote for the same form arrives ("25" and Enter typed fast,
 * or in one paste, do what they do typed slowly).
 */
import { Box, Text } from 'ink';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { formatAmount } from '../../../shared/amount.js';
import { formatBpsAsPercent } from '../../../shared/fees.js';
import { useUi } from '../context.js';
import { useHeld } from '../hooks/use-held.js';
import { type Bindings, useKeys } from '../hooks/use-keys.js';
import { useLiveQuote } from '../hooks/use-live-quote.js';
import { secondsUntil, useNow } from '../hooks/use-now.js';
import { usePlanReview } from '../hooks/use-plan-review.js';
import type { PlanRequest } from '../services.js';
import { AmountRow } from '../widgets/amount-row.js';
import { Busy, ErrorLine, FailureLine, FieldLabel, Title } from '../widgets/layout.js';
import { PlanStatus } from '../widgets/plan-status.js';
import { QuoteView } from '../widgets/quote-view.js';
import { SlippageField, slippageKeys } from '../widgets/slippage-field.js';
import { TokenPicker } from '../widgets/token-picker.js';
import {
  type Field,
  initialTrade,
  nextFocus,
  requestOf,
  slippageOf,
  type TradeForm,
} from './trade-state.js';

/** `initial`: the form as it was left for the review (Esc or `n` comes back to it). */
export function TradeScreen({ initial }: { initial?: TradeForm | undefined }) {
  const { services, state: app, dispatch, theme } = useUi();
  const tokens = useMemo(() => services.tokens(), [services]);
  const [form, setForm] = useState<TradeForm>(
    () => initial ?? initialTrade(services.settings().slippageBps),
  );
  const heldOf = useHeld();
  const review = usePlanReview();
  // Enter pressed while the form's quote was still coming: the form it was pressed on
  const [submitWhenQuoted, setSubmitWhenQuoted] = useState<string | undefined>(undefined);
  const session = app.session;

  const decimalsOf = (symbol: string): number | undefined =>
    tokens.find((t) => t.symbol === symbol)?.decimals;
  const wanted = requestOf(form, decimalsOf);
  const request = 'request' in wanted ? wanted.request : undefined;
  const swap: PlanRequest | undefined = request && {
    kind: 'trade',
    slippageBps: request.slippageBps,
    params: { amount: request.amount, from: request.from, to: request.to },
  };
  const live = useLiveQuote(request);
  const now = useNow(live.status === 'ready');

  const held = heldOf(form.from);
  const set = (patch: Partial<TradeForm>): void => setForm((f) => ({ ...f, ...patch }));
  const focus = (field: Field): boolean => form.focus === field && !review.running;

  const planTrade = (): void => {
    if (!swap || !session || !services.features.trade) return;
    review.plan(swap, { name: 'trade', form });
  };
  const quoting = live.status === 'waiting' || live.status === 'loading';
  const asked = request === undefined ? undefined : JSON.stringify(request);
  // the quote Enter waited for: plan once it is in for the same form; a change or a failed
  // quote forgets the Enter
  const planLatest = useRef(planTrade);
  useLayoutEffect(() => {
    planLatest.current = planTrade;
  });
  useEffect(() => {
    if (submitWhenQuoted === undefined) return;
    if (submitWhenQuoted !== asked || (!quoting && live.status !== 'ready')) {
      setSubmitWhenQuoted(undefined);
      return;
    }
    if (live.status === 'ready') {
      setSubmitWhenQuoted(undefined);
      planLatest.current();
    }
  }, [submitWhenQuoted, asked, quoting, live.status]);

  const bindings: Bindings = {
    nextField: () => set({ focus: nextFocus(form.focus) }),
    submit: () => {
      if (live.status === 'ready') planTrade();
      else if (quoting && asked !== undefined) setSubmitWhenQuoted(asked);
    },
    swapTokens: () => set({ from: form.to, to: form.from }),
  };
  if (form.focus === 'amount' && held) {
    bindings.max = () => set({ amount: formatAmount(held.amount, held.decimals) });
  }
  if (form.focus === 'slippage') Object.assign(bindings, slippageKeys(form, set));
  bindings.back = () => dispatch({ type: 'back' });
  useKeys(bindings, {
    isActive: !review.running,
    wording: { submit: 'review', up: 'slippage', down: 'slippage' },
  });

  const slippage = slippageOf(form);
  const slippageText = 'bps' in slippage ? formatBpsAsPercent(slippage.bps) : '?';
  const refreshIn = live.refreshAt === undefined ? undefined : secondsUntil(live.refreshAt, now);

  return (
    <Box flexDirection="column">
      <Title>Trade</Title>
      <Box>
        <FieldLabel label="From" focused={focus('from')} />
        <TokenPicker
          items={tokens}
          value={form.from}
          onChange={(from) => set({ from })}
          focused={focus('from')}
        />
      </Box>
      <Box>
        <FieldLabel label="To" focused={focus('to')} />
        <TokenPicker
          items={tokens}
          value={form.to}
          onChange={(to) => set({ to })}
          focused={focus('to')}
        />
      </Box>
      <AmountRow
        value={form.amount}
        onChange={(amount) => set({ amount })}
        focused={focus('amount')}
        token={form.from}
        held={held}
      />
      <SlippageField value={form} onChange={set} focused={focus('slippage')} />
      <Box marginTop={1} flexDirection="column">
        {'problem' in wanted && wanted.problem !== undefined ? (
          <ErrorLine message={wanted.problem} />
        ) : null}
        {live.status === 'idle' && !('problem' in wanted && wanted.problem) ? (
          <Text color={theme.muted}>enter an amount to see a quote</Text>
        ) : null}
        {live.spinner ? <Busy label="getting a quote…" /> : null}
        {submitWhenQuoted !== undefined ? (
          <Text color={theme.muted}>the review opens once the quote is in</Text>
        ) : null}
        {live.failure ? <FailureLine failure={live.failure} /> : null}
        {live.quote ? <QuoteView quote={live.quote} slippagePercent={slippageText} /> : null}
        {live.quote && refreshIn !== undefined ? (
          <Text color={theme.muted}>quote refreshes in {refreshIn} s</Text>
        ) : null}
        {live.quote && !services.features.trade ? (
          <Text color={theme.warning} wrap="wrap">
            Signing and sending swaps is not in this version: this screen quotes only.
          </Text>
        ) : null}
        <PlanStatus
          review={review}
          busy="preparing the transaction and simulating it…"
          // a failed plan is said while the form still asks for what failed: a change clears it
          failure={review.failureWhile(swap)}
        />
      </Box>
    </Box>
  );
}
