import { homedir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir } from '../../shared/fs.js';

/**
 * The platform's config folder for finance-tui, from `env` (env-paths' rules, read from the
 * command's environment rather than the process's: `run` takes everything from its io,
 * docs/decisions.md "Bin runs in-process where the result is the subject"): `$XDG_CONFIG_HOME`
 * or `~/.config` on Linux, `~/Library/Preferences` on macOS, `%APPDATA%\finance-tui\Config` on
 * Windows. The home folder is `env.HOME`, else the account's (os.homedir).
 */
function platformConfigDir(env: NodeJS.ProcessEnv): string {
  const home = env.HOME?.trim() || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'finance-tui');
  if (process.platform === 'win32')
    return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'finance-tui', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'finance-tui');
}

/**
 * The data folder: FINANCE_TUI_HOME when set (tests and scripts isolate themselves with it),
 * otherwise the platform's config folder. Created 0700 on first use, and narrowed to 0700 if it
 * already exists with a looser mode: it holds secrets.
 */
export function dataDir(env: NodeJS.ProcessEnv): string {
  const dir = env.FINANCE_TUI_HOME?.trim() || platformConfigDir(env);
  ensurePrivateDir(dir);
  return dir;
}
