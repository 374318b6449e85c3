/**
 * The layers of the client (docs/architecture.md "Layout"): the core is self-contained. It
 * imports nothing from the faces (cli/commands, cli/headless, cli/ui, cli/mcp) and no loose file
 * of cli/'s root; the platform (cli/platform) and the outside-service clients (cli/clients)
 * import no face either, and nothing from the core (they sit below it and hold no domain rule). ESLint is where these rules live (eslint.config.js, run by `npm run
 * lint`), with no import cycles anywhere; this proves, with the project's own config, that they
 * fire on planted violations and stay quiet on allowed imports (the cycle rule over files of a
 * scratch folder, the layer rules over planted text).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const CLI = join(root, 'cli');
// The project's config with one rule off: `import-x/no-cycle`, which would walk and parse the
// whole import graph behind each planted import (most of this file's CPU) and cannot fire on a
// planted file that nothing imports; the cycle rule is proved below, over real files, with the
// whole config, and `npm run lint` runs it over the tree.
const eslint = new ESLint({ cwd: root, overrideConfig: { rules: { 'import-x/no-cycle': 'off' } } });

/** The rules that fire on `code` as if it were the file at `path` (repo-relative). */
async function rulesFired(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('client layers (eslint.config.js)', () => {
  it.each([
    ['cli/core/planted.ts', "import { App } from '../ui/app.js';\nexport const a = App;\n"],
    ['cli/core/planted.ts', "export const a = () => import('../commands/quote.js');\n"],
    ['cli/core/planted.ts', "export { run } from '../run.js';\n"],
    ['cli/core/actions/planted.ts', "import '../../mcp/server.js';\n"],
    ['cli/platform/planted.ts', "import '../headless/output.js';\n"],
    ['cli/clients/planted.ts', "import '../main.js';\n"],
  ])('%s: %j is refused', async (path, code) => {
    const fired = await rulesFired(path, code);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatch(/^import-x\/no-restricted-paths: .*imports no face/);
  });

  it.each([
    [
      'cli/clients/planted.ts',
      "import { checkPairCount } from '../core/actions/limits.js';\nexport const c = checkPairCount;\n",
    ],
    ['cli/clients/planted.ts', "export const p = () => import('../core/status.js');\n"],
    ['cli/platform/planted.ts', "import '../core/endpoints.js';\n"],
    ['cli/platform/planted.ts', "export { swapsAllowed } from '../core/actions/rules.js';\n"],
  ])('%s: %j is refused (below the core)', async (path, code) => {
    const fired = await rulesFired(path, code);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatch(/^import-x\/no-restricted-paths: .*imports nothing from cli\/core/);
  });

  it.each([
    [
      'cli/core/planted.ts',
      "import { AppError } from '../../shared/errors.js';\nexport const e = AppError;\n",
    ],
    ['cli/platform/planted.ts', "import '../clients/probe.js';\nimport '../../shared/felt.js';\n"],
    [
      'cli/clients/planted.ts',
      "import '../platform/paths.js';\nimport '../../shared/tokens.js';\n",
    ],
    ['cli/core/planted.ts', "import '../clients/probe.js';\nimport '../platform/paths.js';\n"],
    ['cli/ui/planted.ts', "import '../core/endpoints.js';\nimport '../commands/quote.js';\n"],
    ['cli/commands/planted.ts', "import '../headless/output.js';\n"],
  ])('%s: %j is allowed', async (path, code) => {
    expect(await rulesFired(path, code)).toEqual([]);
  });

  it('cli/ holds only the bin (its entry and main) and the command table at its root (and their unit tests)', () => {
    const loose = readdirSync(CLI, { withFileTypes: true })
      .filter((e) => e.isFile() && !/\.test\.tsx?$/.test(e.name))
      .map((e) => e.name)
      .sort();
    expect(loose).toEqual(['bin.ts', 'main.ts', 'run.ts']);
  });
});

describe('no import cycles (eslint.config.js)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'finance-tui-cycle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // the same config, over files of a scratch folder (a cycle needs two real files)
  const scratch = new ESLint({ cwd: dir, overrideConfigFile: join(root, 'eslint.config.js') });

  it('a cycle through a lazy import() is refused; a one-way import is not', async () => {
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b.js';\nexport const a = () => b;\n");
    writeFileSync(
      join(dir, 'b.ts'),
      "export const b = 1;\nexport const late = () => import('./a.js');\n",
    );
    writeFileSync(join(dir, 'c.ts'), "import { b } from './b.js';\nexport const c = b;\n");
    const results = await scratch.lintFiles(['a.ts', 'b.ts', 'c.ts']);
    const fired = Object.fromEntries(
      results.map((r) => [r.filePath.slice(dir.length + 1), r.messages.map((m) => m.ruleId)]),
    );
    expect(fired).toEqual({
      'a.ts': ['import-x/no-cycle'],
      'b.ts': ['import-x/no-cycle'],
      'c.ts': [],
    });
  });
});

describe('silenced lint rules say why', () => {
  it('every eslint-disable comment names its rules and gives a reason after " -- "', () => {
    const unexplained: string[] = [];
    for (const top of ['cli', 'server', 'shared', 'sandbox', 'test', 'bench', 'scripts'])
      for (const entry of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.(ts|tsx|mjs|js)$/.test(entry.name)) continue;
        const path = join(entry.parentPath, entry.name);
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            // written apart so this file's own source is not a match
            const directive = line.match(new RegExp('eslint-' + 'disable(-next-line|-line)?(.*)'));
            if (directive && !/^\s+\S.* -- \S/.test(directive[2] ?? ''))
              unexplained.push(`${path.slice(root.length + 1)}:${i + 1}: ${line.trim()}`);
          });
      }
    expect(unexplained).toEqual([]);
  });
});
