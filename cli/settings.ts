/**
 * User settings, kept with conf in `<data folder>/settings.json` (0600: it may hold an API key).
 * Environment variables override the file for one run (scripts and tests use them):
 * FINANCE_TUI_SERVER_URL, FINANCE_TUI_AGGREGATOR_URL, FINANCE_TUI_AGGREGATOR_API_KEY,
 * FINANCE_TUI_NETWORK, FINANCE_TUI_SANDBOX=1.
 */
import Conf from 'conf';
import Type from 'typebox';
import { Value } from 'typebox/value';
import { AppError, ErrorCode } from '../shared/errors.js';
import type { Network } from '../shared/tokens.js';
import { dataDir } from './paths.js';


export interface Settings {
  /** our auth server */
  serverUrl: string;
  aggregatorUrl: string;
  aggregatorApiKey: string | undefined;
  network: Network;
  sandbox: boolean;
  /** default slippage in basis points (100 = 1 %) */
  slippageBps: number;
}

export const DEFAULT_SETTINGS: Settings = {
  serverUrl: 'http://127.0.0.1:3001',
  aggregatorUrl: 'https://api.fibrous.finance/starknet',
  aggregatorApiKey: undefined,
  network: 'mainnet',
  sandbox: false,
  slippageBps: 100,
};

type Stored = Omit<Settings, 'aggregatorApiKey'> & { aggregatorApiKey?: string };

/**
 * The file's shape, checked with TypeBox when read and before a write, rather than through
 * conf's `schema` option: that compiles the schema with ajv (and its formats) on every start,
 * which cost ~100 ms of each command's start-up.
 */
const StoredSchema = Type.Object({
  serverUrl: Type.String({ maxLength: 2000 }),
  aggregatorUrl: Type.String({ maxLength: 2000 }),
  aggregatorApiKey: Type.Optional(Type.String({ maxLength: 2000 })),
  network: Type.Union([Type.Literal('mainnet'), Type.Literal('sepolia')]),
  sandbox: Type.Boolean(),
  slippageBps: Type.Integer({ minimum: 1, maximum: 5000 }),
});

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

/** What is wrong with stored settings, if anything (names the first bad key). */
export function settingsProblem(stored: unknown): string | undefined {
  if (!Value.Check(StoredSchema, stored)) {
    const first = Value.Errors(StoredSchema, stored)[0] as { instancePath?: string; message?: string } | undefined;
    return `${first?.instancePath?.replace(/^\//, '') || 'settings'} ${first?.message ?? 'is invalid'}`;
  }
  for (const key of ['serverUrl', 'aggregatorUrl'] as const) if (!isHttpUrl(stored[key])) return `${key} must be an http(s) URL`;
  return undefined;
}

export function openSettingsStore(env: NodeJS.ProcessEnv): Conf<Stored> {
  try {
    return new Conf<Stored>({
      projectName: 'finance-tui',
      cwd: dataDir(env),
      configName: 'settings',
      configFileMode: 0o600,
      defaults: {
        serverUrl: DEFAULT_SETTINGS.serverUrl,
        aggregatorUrl: DEFAULT_SETTINGS.aggregatorUrl,
        network: DEFAULT_SETTINGS.network,
        sandbox: DEFAULT_SETTINGS.sandbox,
        slippageBps: DEFAULT_SETTINGS.slippageBps,
      },
    });
  } catch (error) {
    throw new AppError(ErrorCode.CONFIG_ERROR, `the settings file in ${dataDir(env)} is invalid: ${(error as Error).message}`, {
      status: 400,
      cause: error,
    });
  }
}

function envUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  if (!value) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new AppError(ErrorCode.CONFIG_ERROR, `${name} must be an http(s) URL`, { status: 400 });
  }
  return value.replace(/\/+$/, '');
}

/** The effective settings: file, then environment overrides. */
export function loadSettings(env: NodeJS.ProcessEnv): Settings {
  const stored = openSettingsStore(env).store;
  const problem = settingsProblem(stored);
  if (problem !== undefined) throw new AppError(ErrorCode.CONFIG_ERROR, `the settings file in ${dataDir(env)} is invalid: ${problem}`, { status: 400 });
  const network = env.FINANCE_TUI_NETWORK?.trim() || stored.network;
  if (network !== 'mainnet' && network !== 'sepolia') {
    throw new AppError(ErrorCode.CONFIG_ERROR, `FINANCE_TUI_NETWORK must be mainnet or sepolia (got "${network}")`, { status: 400 });
  }
  return {
    serverUrl: envUrl(env, 'FINANCE_TUI_SERVER_URL') ?? stored.serverUrl,
    aggregatorUrl: envUrl(env, 'FINANCE_TUI_AGGREGATOR_URL') ?? stored.aggregatorUrl,
    aggregatorApiKey: env.FINANCE_TUI_AGGREGATOR_API_KEY?.trim() || stored.aggregatorApiKey,
    network,
    sandbox: env.FINANCE_TUI_SANDBOX === '1' || stored.sandbox,
    slippageBps: stored.slippageBps,
  };
}
