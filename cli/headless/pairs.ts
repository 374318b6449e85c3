/**
 * "AMOUNT FROM>TO" (a swap) and "AMOUNT TOKEN>ADDRESS" (a transfer), as `quote --pairs`,
 * `multi-swap --pairs` and `batch --swap/--send` take them. Light: no heavy import, so usage
 * errors answer at once.
 */
import { usageError } from '../../shared/errors.js';

const ITEM = /^(\S+)\s+(\S+?)\s*>\s*(\S+)$/;

/** One "AMOUNT A>B" item; `flag` and `example` name it in the usage error. */
export function parseArrowItem(
  item: string,
  flag: string,
  example: string,
): { amount: string; left: string; right: string } {
  const match = ITEM.exec(item.trim());
  if (match === null)
    throw usageError(`${flag} item "${item.trim().slice(0, 80)}" is not "${example}"`);
  return { amount: match[1] ?? '', left: match[2] ?? '', right: match[3] ?? '' };
}

/** "100 USDC>ETH, 50 STRK>ETH" → pairs (the count is checked by the caller). */
export function parsePairList(
  text: string,
  flag = '--pairs',
): Array<{ amount: string; from: string; to: string }> {
  const items = text.split(',').map((s) => s.trim());
  if (items.some((s) => s === ''))
    throw usageError(`${flag} has an empty item (format: "100 USDC>ETH, 50 STRK>ETH")`);
  return items.map((item) => {
    const { amount, left, right } = parseArrowItem(
      item,
      flag,
      'AMOUNT FROM>TO (e.g. "100 USDC>ETH")',
    );
    return { amount, from: left, to: right };
  });
}
