import type * as Fs from 'node:fs';
import { createRequire } from 'node:module';

// node:fs through require, not `import`: its ES facade reads every export, fs.promises among them,
// which loads ~30 of Node's internal modules (readline's among them) — most of what `--version`
// loads beyond Node itself (docs/decisions.md "Built-ins required, TypeBox by name")
const { readFileSync } = createRequire(import.meta.url)('node:fs') as typeof Fs;

/** package.json's version, written in by the bundle (scripts/bundle.mjs); not defined unbundled. */
declare const __FINANCE_TUI_VERSION__: string | undefined;

let cached: string | undefined;

/**
 * The package version: in the published bundle, the one written in when it was built (cli/bin.ts
 * answers `--version` from the same constant); otherwise read from package.json above the source
 * (shared/) or the build (dist/shared/).
 */
export function packageVersion(): string {
  if (typeof __FINANCE_TUI_VERSION__ === 'string') return __FINANCE_TUI_VERSION__;
  if (cached !== undefined) return cached;
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'finance-tui' && typeof pkg.version === 'string') {
        cached = pkg.version;
        return cached;
      }
    } catch {
      // not this one; try the next candidate
    }
  }
  cached = '0.0.0';
  return cached;
}

/** The plain answer to `--version`: the version and a newline (cli/run.ts, and cli/bin.ts's fast path). */
export function versionLine(): string {
  return `${packageVersion()}\n`;
}
