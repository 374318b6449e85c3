/**
 * The core's plan and receipt lines (cli/core/actions/plan-lines.ts; docs/architecture.md "One
 * plan model"), styled: a leg's first line numbered with the leg and its other lines under it,
 * a quote's details muted, what must be acknowledged in danger, a balance change signed and
 * coloured. The words are the core's: every amount exact, nothing left out.
 */
import { Text } from 'ink';
import type { PlanLine } from '../../core/actions/plan-lines.js';
import { useUi } from '../context.js';
import { signedAmount } from '../format.js';

export function PlanLines({
  lines,
  isNew = () => false,
}: {
  lines: readonly PlanLine[];
  /** a line the reviewed plan did not have (PLAN_CHANGED): marked ▸ */
  isNew?: (words: string) => boolean;
}) {
  const { theme } = useUi();
  const seen = new Set<number>();
  return (
    <>
      {lines.map((l, i) => {
        const first = l.leg !== null && !seen.has(l.leg);
        if (l.leg !== null) seen.add(l.leg);
        const lead = l.leg === null ? '' : first ? `${l.leg + 1}. ` : '   ';
        const [change] = l.amounts;
        // a balance change: signed with the app's minus, coloured by its direction
        if (l.kind === 'change' && change !== undefined && change.decimals !== null)
          return (
            <Text key={i} color={change.baseUnits < 0n ? theme.warning : theme.success}>
              {signedAmount(change.baseUnits, change.decimals, change.symbol)}
            </Text>
          );
        const marked = isNew(l.words);
        const color = marked
          ? theme.warning
          : l.kind === 'acknowledgment'
            ? theme.danger
            : l.kind === 'expected'
              ? theme.muted
              : undefined;
        return (
          <Text key={i} wrap="wrap" bold={marked} {...(color === undefined ? {} : { color })}>
            {marked ? '▸ ' : ''}
            {lead}
            {l.words}
          </Text>
        );
      })}
    </>
  );
}
