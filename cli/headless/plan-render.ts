/**
 * Human renderings of the plan document, of an executed plan and of the history: one screen, the
 * plan's lines (what leaves, what arrives at least, fees, gas, terms: the core's, plan-lines.ts),
 * the simulation's verdict, then the exact calls.
 * Amounts are exact, as in every face (docs/decisions.md "Amounts are shown exact, everywhere").
 */
import type { ExecutionResult } from '../core/actions/pipeline.js';
import type { PlanDocument } from '../core/actions/document.js';
import { type PlanLine, planLines, receiptLines } from '../core/actions/plan-lines.js';
import { byKind } from '../core/actions/kinds.js';
import type { HistoryEntry } from '../core/history.js';
import type { ListedEntry } from '../core/history-view.js';
import type { Money } from '../core/quote-summary.js';
import { renderRebalanceTable } from './portfolio-render.js';

/** Every amount, every digit, never cut (Money.amount is shared/amount.ts formatAmount's). */
const exact = (m: Money): string => `${m.amount} ${m.symbol}`;
const signed = (m: Money): string => (m.baseUnits.startsWith('-') ? exact(m) : `+${exact(m)}`);

const TITLES: Record<PlanDocument['kind'], string> = byKind((k) => k.label);

function simulationLine(doc: PlanDocument): string {
  const sim = doc.simulation;
  if (sim.status === 'not-run') return 'not run';
  if (sim.status === 'reverted') return `REVERTS: ${sim.reason}`;
  if (sim.balanceChanges.length === 0) return 'ok, no balance changes';
  return `ok: ${sim.balanceChanges.map((c) => signed(c.change)).join(', ')}`;
}

/**
 * The plan's lines (docs/architecture.md "One plan model"), as text: a leg's first line numbered
 * with the leg, its other lines under it; the lines of the plan as a whole after them.
 */
function renderLines(lines: readonly PlanLine[]): string[] {
  const seen = new Set<number>();
  return lines.map((l) => {
    if (l.leg === null) return `  ${l.words}`;
    const first = !seen.has(l.leg);
    seen.add(l.leg);
    return first ? `  ${l.leg + 1}. ${l.words}` : `     ${l.words}`;
  });
}

export function renderPlan(doc: PlanDocument): string {
  const lines: string[] = [];
  if (doc.sandbox) lines.push('SANDBOX — local emulators, no real funds');
  lines.push(`${TITLES[doc.kind]} on ${doc.network}: ${doc.headline}`, '');
  if (doc.rebalance !== undefined) lines.push(...renderRebalanceTable(doc.rebalance), '');
  const planned = planLines(doc);
  lines.push(...renderLines(planned));
  if (doc.slippage !== null) lines.push(`  slippage ${doc.slippage.percent} on every swap`);
  lines.push(
    `  simulation: ${simulationLine(doc)}`,
    '',
    'Calls (one transaction, in order):',
    ...doc.calls.map((c, i) => `  ${i + 1}. ${c.description}`),
  );
  for (const warning of doc.warnings) lines.push(`warning: ${warning}`);
  lines.push('');
  return lines.join('\n');
}

export function renderExecution(result: ExecutionResult): string {
  const tx = result.transaction;
  const lines = [
    renderPlan(result).trimEnd(),
    '',
    `Done: transaction ${tx.hash} succeeded${tx.blockNumber === null ? '' : ` in block ${tx.blockNumber}`}.`,
    ...renderLines(receiptLines(result)),
    '',
  ];
  return lines.join('\n');
}

/** A chain revert reason on one line: its "Failure reason" when it has one (the rest is the call stack). */
function shortReason(reason: string): string {
  const text = (/Failure reason: (.*)$/s.exec(reason)?.[1] ?? reason).replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** `currentSandbox`: the chain of the sandbox last started here ("sandbox:<id>"); other sandbox entries are an earlier chain's. */
export function renderHistory(
  entries: ReadonlyArray<HistoryEntry | ListedEntry>,
  setAside: string | null,
  currentSandbox?: string,
): string {
  const lines: string[] = [];
  if (setAside !== null)
    lines.push(`warning: the history file was unreadable and was set aside as ${setAside}`);
  if (entries.length === 0) lines.push('No transactions sent from this client yet.');
  for (const e of entries) {
    // a sandbox entry of another chain than the sandbox last started here: that chain is gone
    const earlier =
      e.sandbox &&
      e.chain !== undefined &&
      currentSandbox !== undefined &&
      e.chain !== currentSandbox;
    const network = e.sandbox ? (earlier ? 'earlier sandbox' : 'sandbox') : e.network;
    const flows = e.amounts.map(
      (a) =>
        `${a.direction === 'out' ? 'sent' : a.basis === 'received' ? 'received' : a.basis === 'exact' ? 'exactly' : 'at least'} ${a.amount} ${a.symbol}${a.to === undefined ? '' : ` to ${a.to}`}`,
    );
    const planned = 'planned' in e ? e.planned : undefined;
    lines.push(
      `${e.time}  ${e.kind.padEnd(10)}  ${e.status.padEnd(9)}  ${network}  ${e.hash ?? '(hash not received)'}`,
      planned === undefined
        ? `    ${flows.join('; ') || e.summary}`
        : `    moved nothing${e.fee === undefined ? '' : ` but its fee, ${e.fee.amount} ${e.fee.symbol}`}; planned: ${e.summary}`,
    );
    if (e.revertReason !== undefined) lines.push(`    reverted: ${shortReason(e.revertReason)}`);
    if (e.note !== undefined) lines.push(`    ${e.note}`);
    if (e.contradiction !== undefined)
      lines.push(
        `    CONTRADICTED: the chain's answers contradict each other (${e.contradiction}): how it ended is not known`,
      );
    if (e.status === 'orphaned') lines.push('    can no longer be settled: its sandbox stopped');
    if (e.status === 'unknown' || e.status === 'pending')
      lines.push('    not settled yet: do not send it again before it is');
  }
  lines.push('');
  return lines.join('\n');
}
