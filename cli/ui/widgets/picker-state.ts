/** Type-to-filter over a short list, pure: the filter text, the matches, the highlighted one. */
export interface PickerItem {
  symbol: string;
  name: string;
}

/** Symbol prefix matches first, then name or symbol containing the text; case-insensitive. */
export function filterItems<T extends PickerItem>(items: readonly T[], filter: string): T[] {
  const f = filter.trim().toLowerCase();
  if (f === '') return [...items];
  const prefix = items.filter((t) => t.symbol.toLowerCase().startsWith(f));
  const rest = items.filter(
    (t) =>
      !prefix.includes(t) &&
      (t.symbol.toLowerCase().includes(f) || t.name.toLowerCase().includes(f)),
  );
  return [...prefix, ...rest];
}

/** Move the highlight by `step` within `count` matches, wrapping. */
export function moveHighlight(index: number, step: number, count: number): number {
  if (count === 0) return 0;
  return (((index + step) % count) + count) % count;
}
