/** Small shared pieces of every screen: title, busy mark, error line, footer, key/value rows. */
import { Box, Text } from 'ink';
import Spinner from 'ink-spinner';
import type { ReactNode } from 'react';
import wrapAnsi from 'wrap-ansi';
import { useUi } from '../context.js';
import { describeFailure, type Failure } from '../failure.js';
import type { TaskState } from '../hooks/use-task.js';
import { type Action, footerText } from '../keymap.js';

export function Title({ children }: { children: ReactNode }) {
  const { theme } = useUi();
  return (
    <Text bold color={theme.accent} wrap="truncate-end">
      {children}
    </Text>
  );
}

/** The label column of a form: the longest plain label ("Collateral", "Validator") and a space. */
export const LABEL_WIDTH = 11;

/**
 * A form field's label, padded to `width` (the form's label column, LABEL_WIDTH unless a form
 * sizes it to a longer label such as "Amount (USDC)") and never narrower than the label and a
 * space, so the value always has a space before it; "› " before it while the field has the
 * focus: focus is seen without colour or inverse video too (NO_COLOR, a terminal that drops
 * attributes).
 */
export function FieldLabel({
  label,
  focused,
  width = LABEL_WIDTH,
}: {
  label: string;
  focused: boolean;
  width?: number;
}) {
  const { theme } = useUi();
  return (
    <Text color={focused ? theme.accent : undefined}>{`${focused ? '› ' : '  '}${label.padEnd(
      Math.max(width, label.length + 1),
    )}`}</Text>
  );
}

/** A spinner, or a static mark when animation is off (TERM=dumb, tests). */
export function Busy({ label }: { label: string }) {
  const { theme } = useUi();
  return (
    <Text wrap="truncate-end">
      <Text color={theme.accent}>{theme.animate ? <Spinner type="dots" /> : '…'}</Text> {label}
    </Text>
  );
}

export function ErrorLine({ message, hint }: { message: string; hint?: string | undefined }) {
  const { theme } = useUi();
  return (
    <Box flexDirection="column">
      <Text color={theme.danger} wrap="wrap">
        ✗ {message}
      </Text>
      {hint ? (
        <Text color={theme.muted} wrap="wrap">
          {hint}
        </Text>
      ) : null}
    </Box>
  );
}

/**
 * The app's one way to say a refusal (cli/ui/failure.ts): what happened in the app's words, the
 * core's sentence, its stable code, then what to do — the refusal's own remedy, or `hint` where
 * the screen offers its own way on (a read that `r` repeats).
 */
export function FailureLine({ failure, hint }: { failure: Failure; hint?: string | undefined }) {
  const { theme } = useUi();
  return (
    <Box flexDirection="column">
      <Text color={theme.danger} wrap="wrap">
        ✗ {failure.title}: {failure.message} <Text color={theme.muted}>({failure.code})</Text>
      </Text>
      <Text color={theme.muted} wrap="wrap">
        {hint ?? failure.next}
      </Text>
    </Box>
  );
}

/**
 * Where a screen's periodic read stands (hooks/use-periodic-read.ts), above what it shows: busy
 * while the first read runs, and a failed read's refusal, saying whether what is shown is the last
 * read's. Lending and Staking share it.
 */
export function ReadStatus({
  loading,
  shown,
  busy,
}: {
  loading: TaskState<unknown>;
  /** whether an earlier read is on the screen */
  shown: boolean;
  busy: string;
}) {
  const failure = loading.status === 'failed' ? describeFailure(loading.error) : undefined;
  return (
    <>
      {loading.status === 'running' && !shown ? <Busy label={busy} /> : null}
      {failure ? (
        <FailureLine
          failure={failure}
          hint={
            shown
              ? 'the positions below are from the last read; Ctrl+R to try again'
              : 'Ctrl+R to try again'
          }
        />
      ) : null}
    </>
  );
}

/** The footer's line: the screen's keys, then Ctrl+C, which every screen has. */
export function footerLine(
  actions: readonly Action[],
  wording?: Partial<Record<Action, string>>,
): string {
  const keys = footerText(actions, wording);
  return `${keys === '' ? '' : `${keys} · `}Ctrl+C quit`;
}

/**
 * How many lines `text` takes in a `<Text wrap="wrap">` `width` columns wide: Ink's own wrap
 * (wrap-ansi, words kept whole where they fit, a longer word cut, untrimmed) measured in terminal
 * cells, so a wide character (CJK, emoji) counts two columns and a combining mark none.
 */
export function wrappedLines(text: string, width: number): number {
  return wrapAnsi(text, width, { hard: true, trim: false }).split('\n').length;
}

/** Wraps rather than cuts on a narrow terminal: every key stays listed (the frame makes room). */
export function Footer({
  actions,
  wording,
}: {
  actions: readonly Action[];
  wording?: Partial<Record<Action, string>>;
}) {
  const { theme } = useUi();
  return (
    <Box>
      <Text color={theme.muted} wrap="wrap">
        {footerLine(actions, wording)}
      </Text>
    </Box>
  );
}

/** Labelled rows; a long value (a figure, an address) wraps beside its label, never cut. */
export function Rows({ rows }: { rows: ReadonlyArray<readonly [string, ReactNode]> }) {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  return (
    <Box flexDirection="column">
      {rows.map(([label, value], i) => (
        <Box key={`${label}-${i}`}>
          <Box width={width + 1} flexShrink={0}>
            <Text>{label}</Text>
          </Box>
          <Text wrap="wrap">{value}</Text>
        </Box>
      ))}
    </Box>
  );
}
