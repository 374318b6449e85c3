/**
 * `history --csv`: the transactions as CSV for taxes and spreadsheets (RFC 4180: a header row,
 * CRLF line ends, a field with a comma, a quote or a line break quoted, quotes doubled). Exact
 * amounts as recorded (token units, never rounded). A field a spreadsheet would run as a formula
 * (starting with = + - @) is prefixed with ' so it stays text.
 */
import type { HistoryEntry } from '../core/history.js';
import type { ListedEntry } from '../core/history-view.js';

const CSV_HEADER = ['time', 'kind', 'network', 'hash', 'left', 'arrived', 'fee', 'status'] as const;

export function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const flow = (e: HistoryEntry | ListedEntry, direction: 'out' | 'in'): string =>
  e.amounts
    .filter((a) => a.direction === direction)
    .map(
      (a) =>
        `${a.amount} ${a.symbol}${a.basis === 'minimum' ? ' (at least)' : ''}${a.to === undefined ? '' : ` to ${a.to}`}`,
    )
    .join('; ');

/** The gas the account paid, from the receipt; empty when sponsored, not settled, or recorded by an older version. */
const fee = (e: HistoryEntry | ListedEntry): string =>
  e.fee === undefined ? '' : `${e.fee.amount} ${e.fee.symbol}`;

export function renderHistoryCsv(entries: ReadonlyArray<HistoryEntry | ListedEntry>): string {
  const rows = entries.map((e) => [
    e.time,
    e.kind,
    e.sandbox ? 'sandbox' : e.network,
    e.hash ?? '',
    flow(e, 'out'),
    flow(e, 'in'),
    fee(e),
    e.status,
  ]);
  return (
    [CSV_HEADER as readonly string[], ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') +
    '\r\n'
  );
}
