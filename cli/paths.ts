import { mkdirSync } from 'node:fs';
import envPaths from 'env-paths';

/**
 * The data folder: FINANCE_TUI_HOME when set (tests and scripts isolate themselves with it),
 * otherwise the platform's config folder. Created 0700 on first use: it holds secrets.
 */
export function dataDir(env: NodeJS.ProcessEnv): string {
  const dir = env.FINANCE_TUI_HOME?.trim() || envPaths('finance-tui', { suffix: '' }).config;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
