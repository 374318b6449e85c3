/**
 * An isolated FINANCE_TUI_HOME and a clean environment: for unit tests (the module reads the
 * folder or the environment in this process) and for process tests (test/helpers/process.ts
 * hands them to a child). Spawns nothing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
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

/**
 * What a person's own shell carries that lets a program reach the network from this machine:
 * the CA bundle variables (an inspecting proxy's CA), the proxy variables, and npm's own
 * settings given in the environment (docs/decisions.md "Tests never reach off the machine").
 */
const NETWORK_VARIABLES =
  /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|CURL_CA_BUNDLE|REQUESTS_CA_BUNDLE|GIT_SSL_CAINFO|NIX_SSL_CERT_FILE|HTTPS?_PROXY|ALL_PROXY|NO_PROXY|npm_config_(registry|cafile|ca|strict_ssl|proxy|https_proxy|noproxy|userconfig|update_notifier|offline))$/i;

/**
 * A new shell's environment for a test whose subject is one (a fresh HOME, a short PATH): HOME,
 * PATH and LANG, plus what the person's own shell would still carry — the CA bundle, proxy and
 * npm variables of this run (NETWORK_VARIABLES) and the person's npm config file, which a new
 * HOME would otherwise hide (npm reads ~/.npmrc) — then `extra`.
 */
export function newShellEnv(
  home: string,
  path: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { HOME: home, PATH: path, LANG: 'C.UTF-8' };
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && NETWORK_VARIABLES.test(key)) env[key] = value;
  const ownNpmrc = join(homedir(), '.npmrc');
  if (env.npm_config_userconfig === undefined && existsSync(ownNpmrc))
    env.npm_config_userconfig = ownNpmrc;
  return { ...env, ...extra };
}
