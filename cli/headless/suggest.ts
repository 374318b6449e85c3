/**
 * "Did you mean …?" for mistyped flags and commands: the closest candidate by edit distance
 * (optimal string alignment: insertions, deletions, substitutions and adjacent swaps, so
 * `--slipage` and `--slipapge` both find `--slippage`), when it is close enough to be a typo.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[rows - 1] as number[])[cols - 1] as number;
}

/**
 * The candidate closest to `word` (case-insensitive), if within a typo's reach: at most 2 edits,
 * and fewer than half the word's length (so "x" does not "mean" --json). Ties go to the first.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best === undefined) return undefined;
  const reach = Math.min(2, Math.floor((lower.replace(/^-+/, '').length - 1) / 2));
  return best.distance <= reach ? best.candidate : undefined;
}
