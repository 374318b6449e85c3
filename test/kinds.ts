/**
 * The two kinds of test (docs/architecture.md "Tests"), in one place: where each kind lives, for
 * vitest.config.ts, and the rule that keeps a unit test a unit test, checked before the unit
 * project runs (test/unit-setup.ts).
 *
 * A unit test sits beside its module under cli/, server/, shared/ or sandbox/ and runs in this
 * process: it may use fakes, temporary folders and servers it starts itself on 127.0.0.1 port 0,
 * but it starts no child process and needs no build. So neither it nor any test helper it
 * imports (followed through test/helpers/) may import node:child_process or name a dist/ path.
 * Process tests live in test/: the built CLI, child processes, tmux, redis-server, and the whole
 * sandbox stack driven end to end.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const UNIT_DIRS = ['cli', 'server', 'shared', 'sandbox'] as const;
export const UNIT_TESTS = UNIT_DIRS.map((dir) => `${dir}/**/*.test.{ts,tsx}`);
export const PROCESS_TESTS = ['test/**/*.test.{ts,tsx}'];

const HELPERS = 'test/helpers/';
const TEST_FILE = /\.test\.tsx?$/;

/** Module specifiers of static imports, re-exports, side-effect imports and dynamic import()s. */
function specifiersOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm)].map(
    (m) => m[2] as string,
  );
}

/** Why `text` (a unit test or a helper it imports) is not allowed in a unit test; [] if it is. */
function ownProblems(text: string): string[] {
  const problems: string[] = [];
  if (specifiersOf(text).some((spec) => spec === 'node:child_process' || spec === 'child_process'))
    problems.push('imports node:child_process');
  if (/(['"`])(?:[^'"`\n]*\/)?dist(?:\/[^'"`\n]*)?\1/.test(text)) problems.push('names dist/');
  return problems;
}

/** Repo-relative path of a relative `spec` from `file`, with the source's extension. */
function resolveSource(root: string, file: string, spec: string): string {
  const target = resolve(dirname(join(root, file)), spec);
  const candidates = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx')];
  return relative(root, candidates.find((path) => existsSync(path)) ?? target);
}

/**
 * Every problem of the unit test `file` (repo-relative), its own and those of the test helpers it
 * reaches, each as `file: problem` or `file: via helper: problem`.
 */
export function unitProblems(
  root: string,
  file: string,
  read: (path: string) => string = (path) => readFileSync(join(root, path), 'utf8'),
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const visit = (path: string, via: string[]): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = read(path);
    const chain = [file, ...via].join(': via ');
    for (const problem of ownProblems(text)) problems.push(`${chain}: ${problem}`);
    for (const spec of specifiersOf(text)) {
      if (!spec.startsWith('.')) continue;
      const target = resolveSource(root, path, spec);
      if (target.startsWith(HELPERS)) visit(target, [...via, target]);
    }
  };
  visit(file, []);
  return problems;
}

function testFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(root, path);
    return TEST_FILE.test(entry.name) ? [path] : [];
  });
}

/** The unit test files of the tree under `root`, repo-relative. */
export function unitTestFiles(root: string): string[] {
  return UNIT_DIRS.flatMap((dir) => testFiles(root, dir)).sort();
}

/** Every breach of the unit rule in the tree under `root`. */
export function unitRuleProblems(root: string): string[] {
  return unitTestFiles(root).flatMap((file) => unitProblems(root, file));
}
