/**
 * The order test files start in (vitest.config.ts `sequence.sequencer`): the longest first, so no
 * long file starts last and runs alone on one core while the other waits for it, yet still a new
 * order every run. vitest's own order (BaseSequencer: a file that failed last time first, then by
 * the duration its last run took, or by size for a file never run) is cut into windows of
 * WINDOW files, each shuffled with the run's seed (printed; rerun one order with
 * `--sequence.seed=N`). Which files share a process worker, and in what order, so still changes
 * from run to run; the tests inside each file are shuffled as before (docs/decisions.md "Test
 * files start longest first").
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** files per shuffled window: small next to a project's ~100 files, large enough to vary */
export const WINDOW = 8;

/** A seeded PRNG (mulberry32): the same seed gives the same order. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `ordered` cut into windows of `window`, each shuffled by `random` (Fisher–Yates). */
export function shuffleWindows<T>(
  ordered: readonly T[],
  window: number,
  random: () => number,
): T[] {
  const out: T[] = [];
  for (let start = 0; start < ordered.length; start += window) {
    const part = ordered.slice(start, start + window);
    for (let i = part.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [part[i], part[j]] = [part[j] as T, part[i] as T];
    }
    out.push(...part);
  }
  return out;
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const random = prng(Number(this.ctx.config.sequence.seed));
    // windows never mix projects: each project's files keep their group's place
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of ordered) {
      const key = `${spec.project.config.sequence.groupOrder}\u0000${spec.project.name}`;
      byProject.set(key, [...(byProject.get(key) ?? []), spec]);
    }
    return [...byProject.values()].flatMap((group) => shuffleWindows(group, WINDOW, random));
  }
}
