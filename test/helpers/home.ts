/**
 * An isolated FINANCE_TUI_HOME and a clean environment: for unit tests (the module reads the
 * folder or the environment in this process) and for process tests (test/helpers/process.ts
 * hands them to a child). Spawns nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempHome(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'finance-tui-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An environment with no inherited finance-tui or server variables, then `extra`. */
export function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      /^(FINANCE_TUI_|IDENTITY_|JWT_|PAYMASTER_|REDIS_|TRUST_PROXY|ALLOWED_ORIGINS|PUBLIC_URL|PORT$|HOST$|NODE_ENV$|VITEST)/.test(
        key,
      )
    )
      continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}
