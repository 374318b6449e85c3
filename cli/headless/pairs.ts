/**
 * The items of the list parameters (cli/core/actions/kind-params.ts `ListType`), read once for
 * every command that takes them: "AMOUNT FROM>TO" (a swap) and "AMOUNT TOKEN>ADDRESS" (a
 * transfer), as `quote --pairs`, `multi-swap --pairs` and `batch --swap/--send` take them, "AMOUNT
 * TOKEN" (a supply) and "AMOUNT TOKEN>VALIDATOR" (a stake) as `batch --supply/--stake` do. Light:
 * no heavy import, so usage errors answer at once.
 */
import { usageError } from '../../shared/errors.js';
import type { ListType, ParamValues } from '../core/actions/kind-params.js';

const ITEM = /^(\S+)\s+(\S+?)\s*>\s*(\S+)$/;

/** One "AMOUNT A>B" item; `flag` and `example` name it in the usage error. */
function parseArrowItem(
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

/** How one item of each list parameter type is read; `flag` names it in the usage error. */
export const LIST_ITEMS: {
  readonly [T in ListType]: (item: string, flag: string) => ParamValues[T][number];
} = {
  pairs: (item, flag) => {
    const { amount, left, right } = parseArrowItem(
      item,
      flag,
      'AMOUNT FROM>TO (e.g. "1 ETH>USDC")',
    );
    return { amount, from: left, to: right };
  },
  transfers: (item, flag) => {
    const { amount, left, right } = parseArrowItem(
      item,
      flag,
      'AMOUNT TOKEN>ADDRESS (e.g. "5 USDC>0x…")',
    );
    return { amount, token: left, to: right };
  },
  supplies: (item, flag) => {
    const match = /^(\S+)\s+(\S+)$/.exec(item.trim());
    if (match === null)
      throw usageError(
        `${flag} item "${item.trim().slice(0, 80)}" is not "AMOUNT TOKEN" (e.g. "100 USDC")`,
      );
    return { amount: match[1] ?? '', token: match[2] ?? '' };
  },
  stakes: (item, flag) => {
    // the validator may be a preset name with spaces ("Sandbox Alpha")
    const match = /^(\S+)\s+(\S+?)\s*>\s*(\S.*)$/.exec(item.trim());
    if (match === null)
      throw usageError(
        `${flag} item "${item.trim().slice(0, 80)}" is not "AMOUNT TOKEN>VALIDATOR" (e.g. "100 STRK>Sandbox Alpha")`,
      );
    return { amount: match[1] ?? '', token: match[2] ?? '', validator: (match[3] ?? '').trim() };
  },
};
