import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** The package version, read from package.json above the source (shared/) or the build (dist/shared/). */
export function packageVersion(): string {
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
