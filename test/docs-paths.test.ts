/**
 * The files the docs and the code's comments name exist (docs/architecture.md "One request, end
 * to end" names one file per stage; a newcomer follows those names). A backticked path of the
 * docs and README.md under a folder of the repo (`cli/core/actions/execute.ts`) must be that
 * file; a shorter one (`legs/reads.ts`, `plan-action.ts`) must end the path of a file of the repo.
 * A comment in the code naming a `.ts` file likewise. docs/benchmarks.md is left out: it is a
 * record of past runs and names files as they were then. Reads files only.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const CODE_DIRS = ['cli', 'server', 'sandbox', 'shared', 'test', 'bench', 'scripts'];
const SOURCE = /\.(ts|tsx|mjs)$/;
/** names that are no file of ours: the naming convention's example, other projects' files */
const NOT_OURS = new Set([
  'x.ts',
  'x.test.ts',
  'lib/protocol.ts', // vesu-v2
  'lib/config.mainnet.ts', // vesu-v2
  'utils/typedData.ts', // starknet.js
]);

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

const files = [
  ...readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name),
  ...CODE_DIRS.filter((dir) => existsSync(join(ROOT, dir))).flatMap((dir) => walk(dir)),
];

/** Why the named `path` is no file of the repo, or undefined when it is one. */
function missing(path: string): string | undefined {
  if (NOT_OURS.has(path)) return undefined;
  if (CODE_DIRS.some((dir) => path.startsWith(`${dir}/`)))
    return existsSync(join(ROOT, path)) ? undefined : path;
  return files.some((file) => file === path || file.endsWith(`/${path}`)) ? undefined : path;
}

describe('named files exist', () => {
  it('every source file the docs and README.md name in backticks', () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((name) => name.endsWith('.md') && name !== 'benchmarks.md')
        .map((name) => `docs/${name}`),
    ];
    const problems = pages.flatMap((page) =>
      [...readFileSync(join(ROOT, page), 'utf8').matchAll(/`([\w./-]+)`/g)]
        .map((m) => (m[1] as string).replace(/^\.\//, ''))
        .filter((path) => SOURCE.test(path) && !path.startsWith('.'))
        .flatMap((path) => {
          const gone = missing(path);
          return gone === undefined ? [] : [`${page}: ${gone}`];
        }),
    );
    expect(problems).toEqual([]);
    // the walk names a file per stage: the test reads it
    expect(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')).toContain(
      '## One request, end to end',
    );
  });

  it('every .ts file a comment of the code names', () => {
    const problems: string[] = [];
    for (const file of files.filter((f) => /\.(ts|tsx)$/.test(f))) {
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const trimmed = line.trim();
          const at = line.indexOf(' // ');
          const comment =
            trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')
              ? trimmed
              : at >= 0
                ? line.slice(at)
                : undefined;
          if (comment === undefined) return;
          for (const m of comment.matchAll(/(?<![\w/.-])((?:[\w-]+\/)*[\w.-]+\.tsx?)\b/g)) {
            const path = m[1] as string;
            if (path.startsWith('.')) continue; // an extension alone (`.test.ts`)
            const gone = missing(path);
            if (gone !== undefined) problems.push(`${file}:${index + 1}: ${gone}`);
          }
        });
    }
    expect(problems).toEqual([]);
  });

  it('fails for a name that is no file', () => {
    expect(missing('cli/core/no-such-file.ts')).toBe('cli/core/no-such-file.ts');
    expect(missing('legs/no-such-leg.ts')).toBe('legs/no-such-leg.ts');
    expect(missing('legs/reads.ts')).toBeUndefined();
  });
});
