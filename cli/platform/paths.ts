import envPaths from 'env-paths';
import { ensurePrivateDir } from '../../shared/fs.js';

/**
 * The data folder: FINANCE_TUI_HOME when set (tests and scripts isolate themselves with it),
 * otherwise the platform's config folder. Created 0700 on first use, and narrowed to 0700 if it
 * already exists with a looser mode: it holds secrets.
 */
export function dataDir(env: NodeJS.ProcessEnv): string {
  const dir = env.FINANCE_TUI_HOME?.trim() || envPaths('finance-tui', { suffix: '' }).config;
  ensurePrivateDir(dir);
  return dir;
}
