/**
 * The lint config proves itself (docs/decisions.md "Lint is oxlint"). The layers of the client
 * (docs/architecture.md "Layout"): the core is self-contained. It imports nothing from the faces
 * (cli/commands, cli/headless, cli/ui, cli/mcp) and no loose file of cli/'s root; the platform
 * (cli/platform) and the outside-service clients (cli/clients) import no face either, and nothing
 * from the core (they sit below it and hold no domain rule). oxlint is where these rules live
 * (.oxlintrc.json and its JS plugin scripts/lint-plugin.mjs, run by `npm run lint`), with no import
 * cycles anywhere and the rules of ESLint's and typescript-eslint's recommended sets. This runs
 * the project's own config, once, over a scratch folder that mirrors the repo's paths: every
 * planted violation is refused, every allowed import is quiet, and each family of rules fires, so
 * the config cannot silently lose one.
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const CLI = join(root, 'cli');
const OXLINT = join(root, 'node_modules', 'oxlint', 'bin', 'oxlint');

const LAYER_REFUSED: Array<[string, string]> = [
  ['cli/core/planted.ts', "import { App } from '../ui/app.js';\nexport const a = App;\n"],
  ['cli/core/planted.ts', "export const a = () => import('../commands/quote.js');\n"],
  ['cli/core/planted.ts', "export { run } from '../run.js';\n"],
  ['cli/core/planted.ts', "export * from '../main.js';\n"],
  ['cli/core/planted.ts', "import type { App } from '../ui/app.js';\nexport type A = App;\n"],
  ['cli/core/planted.ts', "export type A = import('../ui/app.js').App;\n"],
  ['cli/core/actions/planted.ts', "import '../../mcp/server.js';\n"],
  ['cli/platform/planted.ts', "import '../headless/output.js';\n"],
  ['cli/clients/planted.ts', "import '../main.js';\n"],
  ['cli/clients/planted.ts', 'export const l = () => import(`../bin.js`);\n'],
];
/** A module a layer names by a computed specifier: which one cannot be known, so it is refused. */
const COMPUTED_REFUSED: Array<[string, string]> = [
  ['cli/core/planted.ts', 'export const l = (name: string) => import(`../${name}.js`);\n'],
  ['cli/platform/planted.ts', 'export const l = (name: string) => import(name);\n'],
];
const BELOW_CORE_REFUSED: Array<[string, string]> = [
  [
    'cli/clients/planted.ts',
    "import { checkPairCount } from '../core/actions/limits.js';\nexport const c = checkPairCount;\n",
  ],
  ['cli/clients/planted.ts', "export const p = () => import('../core/status.js');\n"],
  ['cli/platform/planted.ts', "import '../core/endpoints.js';\n"],
  ['cli/platform/planted.ts', "export { swapsAllowed } from '../core/actions/rules.js';\n"],
];
const ALLOWED: Array<[string, string]> = [
  [
    'cli/core/planted.ts',
    "import { AppError } from '../../shared/errors.js';\nexport const e = AppError;\n",
  ],
  ['cli/platform/planted.ts', "import '../clients/probe.js';\nimport '../../shared/felt.js';\n"],
  ['cli/clients/planted.ts', "import '../platform/paths.js';\nimport '../../shared/tokens.js';\n"],
  ['cli/core/planted.ts', "import '../clients/probe.js';\nimport '../platform/paths.js';\n"],
  ['cli/core/planted.ts', "import '../running.js';\nimport 'node:path';\n"],
  ['cli/ui/planted.ts', "import '../core/endpoints.js';\nimport '../commands/quote.js';\n"],
  ['cli/commands/planted.ts', "import '../headless/output.js';\n"],
];

/** A function of `lines` lines in all (its braces included). */
const fn = (name: string, lines: number) =>
  `export function ${name}(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(lines - 4)}  return n;\n}\n`;

/**
 * One planted file per family of rules: what oxlint must report in it, in order, each as the rule's
 * code and, after ": ", a part of its message ('' for a directive or parse problem, which name no
 * rule).
 */
const FAMILIES: Record<string, { path: string; source: string; expected: string[] }> = {
  'a float parse (global)': {
    source: "export const a = parseFloat('1.5');\n",
    path: 'shared/float-global.ts',
    expected: ['eslint(no-restricted-globals): amounts are bigint'],
  },
  'a float parse (Number)': {
    source: "export const a = Number.parseFloat('1.5');\n",
    path: 'shared/float-number.ts',
    expected: ['eslint(no-restricted-properties): amounts are bigint'],
  },
  'a loose equality, null included': {
    source: 'export const none = (x: unknown) => x == null;\n',
    path: 'shared/loose-equality.ts',
    expected: ['eslint(eqeqeq)'],
  },
  'an unused variable (the `_` names and a caught error are left alone)': {
    source:
      'const unused = 1;\nconst _kept = 2;\n' +
      'export function f(a: number, _b: number): number {\n' +
      '  try {\n    return a;\n  } catch (error) {\n    return 0;\n  }\n}\n',
    path: 'shared/unused.ts',
    expected: ["eslint(no-unused-vars): Variable 'unused'"],
  },
  'a 151-line function in the program (150 lines pass)': {
    source: fn('long', 151) + fn('fits', 150),
    path: 'sandbox/long.ts',
    expected: ['eslint(max-lines-per-function)'],
  },
  'a 151-line function in a unit test (left out)': {
    source: fn('long', 151),
    path: 'cli/core/long.test.ts',
    expected: [],
  },
  'a 151-line function in a test helper (left out)': {
    source: fn('long', 151),
    path: 'test/helpers/long.ts',
    expected: [],
  },
  'a hook in a condition, an effect missing a dependency': {
    source:
      "import { useEffect, useState } from 'react';\n" +
      'export function C({ on, x }: { on: boolean; x: number }) {\n' +
      '  if (on) useState(0);\n' +
      '  useEffect(() => {\n    console.log(x);\n  }, []);\n  return null;\n}\n',
    path: 'cli/ui/planted.tsx',
    expected: ['react-hooks(rules-of-hooks)', 'react-hooks(exhaustive-deps)'],
  },
  'a hook in a condition in a test': {
    source:
      "import { useState } from 'react';\n" +
      'export function C({ on }: { on: boolean }) {\n  if (on) useState(0);\n  return null;\n}\n',
    path: 'test/planted.test.tsx',
    expected: ['react-hooks(rules-of-hooks)'],
  },
  'the recommended sets: debugger, any, var': {
    source:
      'export function f(): void {\n  debugger;\n}\nexport const a: any = 1;\nvar v = 1;\nexport { v };\n',
    path: 'shared/presets.ts',
    expected: ['eslint(no-debugger)', 'typescript(no-explicit-any)', 'eslint(no-var)'],
  },
  'an undefined name in a script': {
    source: 'export const u = notDefined;\n',
    path: 'scripts/planted.mjs',
    expected: ["eslint(no-undef): 'notDefined' is not defined"],
  },
  'a legacy octal (no-octal: the parser refuses it)': {
    source: 'export const o = 07;\n',
    path: 'shared/octal.ts',
    expected: [': '],
  },
  'the disable directives under their ESLint names, and an unused one': {
    source:
      '// eslint-disable-next-line no-control-regex -- planted\nexport const c = /\\x1b/;\n' +
      '// eslint-disable-next-line @typescript-eslint/no-explicit-any -- planted\nexport const a: any = 1;\n' +
      "import { useEffect } from 'react';\nexport function useX(x: number) {\n" +
      '  // eslint-disable-next-line react-hooks/exhaustive-deps -- planted\n' +
      '  useEffect(() => console.log(x), []);\n}\n' +
      '// eslint-disable-next-line no-debugger -- planted\nexport const d = 1;\n',
    path: 'cli/ui/directives.ts',
    expected: [': Unused eslint-disable directive'],
  },
};

/** The cycles, over real files: a lazy import() closing one, a static one, a type-only one. */
const CYCLES: Record<string, string> = {
  'cycle/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
  'cycle/b.ts': "export const b = 1;\nexport const late = () => import('./a.js');\n",
  'cycle/c.ts': "import { b } from './b.js';\nexport const c = b;\n",
  'cycle/d.ts': "import { e } from './e.js';\nexport const d = () => e;\n",
  'cycle/e.ts': "import { d } from './d.js';\nexport const e = () => d;\n",
  'cycle/f.ts': "import type { G } from './g.js';\nexport type F = { g?: G };\n",
  'cycle/g.ts': "import type { F } from './f.js';\nexport type G = { f?: F };\n",
};

const planted = (path: string, i: number) => path.replace(/planted\.ts$/, `planted-${i}.ts`);
const cases = (list: Array<[string, string]>, from: number) =>
  list.map(([path, code], i) => [planted(path, from + i), code] as const);
const refused = cases(LAYER_REFUSED, 0);
const belowCore = cases(BELOW_CORE_REFUSED, 100);
const allowed = cases(ALLOWED, 200);
const computed = cases(COMPUTED_REFUSED, 300);

const scratch = mkdtempSync(join(tmpdir(), 'finance-tui-lint-'));
/** What oxlint reported, by repo-relative file: `code: message (help: …)` each, in the file's order. */
let reported: Record<string, string[]> = {};
let linted = 0;

beforeAll(async () => {
  // the project's config and the plugins it loads, at their own paths
  const config = readFileSync(join(root, '.oxlintrc.json'), 'utf8');
  writeFileSync(join(scratch, '.oxlintrc.json'), config);
  for (const plugin of (JSON.parse(config) as { jsPlugins?: string[] }).jsPlugins ?? []) {
    mkdirSync(dirname(join(scratch, plugin)), { recursive: true });
    cpSync(join(root, plugin), join(scratch, plugin));
  }
  const files: Array<readonly [string, string]> = [
    ...refused,
    ...belowCore,
    ...computed,
    ...allowed,
    ...Object.values(FAMILIES).map((f) => [f.path, f.source] as const),
    ...Object.entries(CYCLES),
  ];
  for (const [path, code] of files) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), code);
  }
  const child = spawn(process.execPath, [OXLINT, '--format=json', '.'], {
    cwd: scratch,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((done) => child.once('close', done));
  // 1: problems found (all planted); anything else is the linter failing
  expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
  const result = JSON.parse(stdout) as {
    number_of_files: number;
    diagnostics: Array<{
      code?: string;
      message: string;
      help?: string;
      filename: string;
      labels?: Array<{ span: { offset: number } }>;
    }>;
  };
  linted = result.number_of_files;
  const sorted = [...result.diagnostics].sort(
    (x, y) => (x.labels?.[0]?.span.offset ?? 0) - (y.labels?.[0]?.span.offset ?? 0),
  );
  reported = {};
  for (const d of sorted)
    (reported[d.filename] ??= []).push(
      `${d.code ?? ''}: ${d.message}${d.help ? ` (help: ${d.help})` : ''}`,
    );
  // every planted file and the copied plugin were linted
  expect(linted).toBe(new Set(files.map(([path]) => path)).size + 1);
}, 60_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('client layers (.oxlintrc.json, local/no-restricted-paths)', () => {
  it.each(refused)('%s: %j is refused', (path) => {
    const fired = reported[path] ?? [];
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatch(/^local\(no-restricted-paths\): ".*": cli\/\w+ imports no face/);
  });

  it.each(belowCore)('%s: %j is refused (below the core)', (path) => {
    const fired = reported[path] ?? [];
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatch(
      /^local\(no-restricted-paths\): ".*": cli\/(platform|clients) imports nothing from cli\/core/,
    );
  });

  it.each(computed)('%s: %j is refused (a computed specifier)', (path) => {
    const fired = reported[path] ?? [];
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatch(
      /^local\(no-restricted-paths\): a module named by a computed specifier: cli\/(core|platform) cannot be checked/,
    );
  });

  it.each(allowed)('%s: %j is allowed', (path) => {
    expect(reported[path] ?? []).toEqual([]);
  });

  it('cli/ holds only the bin (its entry and main) and the command table at its root (and their unit tests)', () => {
    const loose = readdirSync(CLI, { withFileTypes: true })
      .filter((e) => e.isFile() && !/\.test\.tsx?$/.test(e.name))
      .map((e) => e.name)
      .sort();
    expect(loose).toEqual(['bin.ts', 'main.ts', 'run.ts']);
  });
});

describe('no import cycles (import/no-cycle, local/no-dynamic-import-cycle)', () => {
  it('a cycle through a lazy import() is refused; a one-way import is not', () => {
    // found once its last file is linted, so in one of its two files (whichever that was)
    const fired = [...(reported['cycle/a.ts'] ?? []), ...(reported['cycle/b.ts'] ?? [])];
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatch(
      /^local\(no-dynamic-import-cycle\): Dependency cycle through import\(\): cycle\/(a|b)\.ts → /,
    );
    expect(reported['cycle/c.ts'] ?? []).toEqual([]);
  });

  it('a cycle of static imports is refused in each of its files; one of types only is not', () => {
    for (const file of ['cycle/d.ts', 'cycle/e.ts']) {
      expect(reported[file]).toHaveLength(1);
      expect(reported[file]?.[0]).toMatch(/^import\(no-cycle\): Dependency cycle detected/);
    }
    expect([...(reported['cycle/f.ts'] ?? []), ...(reported['cycle/g.ts'] ?? [])]).toEqual([]);
  });
});

describe('each family of rules fires', () => {
  it.each(Object.entries(FAMILIES))('%s', (_, { path, expected }) => {
    const fired = reported[path] ?? [];
    expect(fired).toHaveLength(expected.length);
    fired.forEach((line, i) => {
      // `code` alone, or `code: part of the message`
      const [code, part = ''] = (expected[i] as string).split(/: (.*)/s);
      expect(line.startsWith(`${code}: `) && line.includes(part), `${line} ≠ ${expected[i]}`).toBe(
        true,
      );
    });
  });
});

describe('silenced lint rules say why', () => {
  it('every eslint-disable or oxlint-disable comment names its rules and gives a reason after " -- "', () => {
    const unexplained: string[] = [];
    for (const top of ['cli', 'server', 'shared', 'sandbox', 'test', 'bench', 'scripts'])
      for (const entry of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.(ts|tsx|mjs|js)$/.test(entry.name)) continue;
        const path = join(entry.parentPath, entry.name);
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            // written apart so this file's own source is not a match
            const directive = line.match(
              new RegExp('(?://|/\\*)\\s*(?:es|ox)lint-' + 'disable(-next-line|-line)?(.*)'),
            );
            if (directive && !/^\s+\S.* -- \S/.test(directive[2] ?? ''))
              unexplained.push(`${path.slice(root.length + 1)}:${i + 1}: ${line.trim()}`);
          });
      }
    expect(unexplained).toEqual([]);
  });
});
