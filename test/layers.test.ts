/**
 * The layers of the client (docs/architecture.md "Layout"): the core is self-contained. It
 * imports nothing from the faces (cli/commands, cli/headless, cli/ui) and no loose file of cli/'s
 * root; the platform (cli/platform) and the outside-service clients (cli/clients) import no face
 * either. Every relative import and dynamic import() of every source file is read, so a new
 * file is covered without being listed here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const CLI = join(root, 'cli');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Relative specifiers of static imports, re-exports and dynamic import()s, resolved to repo paths. */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm),
  ].map((m) => m[2] as string);
  return specs.map((spec) => relative(root, resolve(dirname(file), spec)));
}

const FACES = ['cli/commands/', 'cli/headless/', 'cli/ui/', 'cli/mcp/'];
const isRootFile = (path: string): boolean => dirname(path) === 'cli';

function violations(layer: string): string[] {
  return sources(join(root, layer)).flatMap((file) =>
    importsOf(file)
      .filter((target) => FACES.some((face) => target.startsWith(face)) || isRootFile(target))
      .map((target) => `${relative(root, file)} imports ${target}`),
  );
}

describe('client layers', () => {
  it('finds imports the way the checks below rely on (a face import in a fixture is seen)', () => {
    expect(importsOf(join(CLI, 'headless', 'with-endpoints.ts'))).toContain(
      'cli/core/endpoints.js',
    );
    expect(
      importsOf(join(CLI, 'run.ts')).some((target) => target.startsWith('cli/commands/')),
    ).toBe(true);
  });

  it.each(['cli/core', 'cli/platform', 'cli/clients'])(
    '%s imports no face and no loose file of cli/',
    (layer) => {
      expect(violations(layer)).toEqual([]);
    },
  );

  it('cli/ holds only the bin and the command table at its root', () => {
    const loose = readdirSync(CLI, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
    expect(loose).toEqual(['main.ts', 'run.ts']);
  });
});
