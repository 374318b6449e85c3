/**
 * The unit rule of test/kinds.ts (docs/architecture.md "Tests"): it catches a unit test that
 * spawns, directly or through a test helper, or that names dist/; and the tree keeps it.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unitProblems, unitRuleProblems, unitTestFiles } from './kinds.js';

const root = resolve(import.meta.dirname, '..');

/** unitProblems over an in-memory tree of `files`. */
const problemsIn = (files: Record<string, string>, file: string): string[] =>
  unitProblems(root, file, (path) => {
    const text = files[path];
    if (text === undefined) throw new Error(`no ${path} in the fixture`);
    return text;
  });

describe('the unit rule', () => {
  it('refuses a unit test that imports node:child_process, or names dist/', () => {
    expect(
      problemsIn(
        { 'cli/x.test.ts': "import { spawn } from 'node:child_process';\n" },
        'cli/x.test.ts',
      ),
    ).toEqual(['cli/x.test.ts: imports node:child_process']);
    expect(
      problemsIn(
        { 'cli/x.test.ts': "const bin = new URL('../dist/cli/main.js', import.meta.url);\n" },
        'cli/x.test.ts',
      ),
    ).toEqual(['cli/x.test.ts: names dist/']);
  });

  it('follows test helpers: a unit test importing the process helpers is refused, naming the chain', () => {
    expect(
      problemsIn(
        {
          'cli/core/x.test.ts': "import { runBin } from '../../test/helpers/cli-sandbox.js';\n",
          'test/helpers/cli-sandbox.ts': "import { spawnBin } from './process.js';\n",
          'test/helpers/process.ts':
            "import { spawn } from 'node:child_process';\nexport const BIN = '../../dist/cli/main.js';\n",
        },
        'cli/core/x.test.ts',
      ),
    ).toEqual([
      'cli/core/x.test.ts: via test/helpers/cli-sandbox.ts: via test/helpers/process.ts: imports node:child_process',
      'cli/core/x.test.ts: via test/helpers/cli-sandbox.ts: via test/helpers/process.ts: names dist/',
    ]);
  });

  it('lets a unit test use the home helpers, its own module and in-process servers', () => {
    expect(
      problemsIn(
        {
          'cli/core/x.test.ts':
            "import { createServer } from 'node:http';\nimport { tempHome } from '../../test/helpers/home.js';\nimport { x } from './x.js';\n",
          'test/helpers/home.ts': "import { mkdtempSync } from 'node:fs';\n",
        },
        'cli/core/x.test.ts',
      ),
    ).toEqual([]);
  });

  it('holds over the tree: every unit test beside its module keeps it', () => {
    expect(unitTestFiles(root)).toContain('shared/amount.test.ts');
    expect(unitRuleProblems(root)).toEqual([]);
  });
});
