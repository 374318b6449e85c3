/**
 * User settings, kept in `<data folder>/settings.json` (0600: it may hold an API key), read and
 * written through store.ts (atomic, under the file's lock: two app windows saving at once lose
 * nothing).
 * Environment variables override the file for one run (scripts and tests use them):
 * FINANCE_TUI_SERVER_URL, FINANCE_TUI_AGGREGATOR_URL, FINANCE_TUI_AGGREGATOR_API_KEY,
 * FINANCE_TUI_RPC_URL, FINANCE_TUI_GAS_TOKEN, FINANCE_TUI_NETWORK, FINANCE_TUI_SANDBOX=1.
 */
import * as Type from 'typebox';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { schemaCheck } from '../clients/schema-check.js';
import { findToken, isNetwork, type Network } from '../../shared/tokens.js';
import { invalidStore, readStore, storedProblem, storeFile, updateStore } from './store.js';
import { printable } from '../../shared/printable.js';
import { privateServiceUrlProblem } from '../../shared/url.js';

export interface Settings {
  /** our auth server */
  serverUrl: string;
  aggregatorUrl: string;
  aggregatorApiKey: string | undefined;
  network: Network;
  sandbox: boolean;
  /** default slippage in basis points (100 = 1 %) */
  slippageBps: number;
  /** Starknet JSON-RPC for reads; undefined = starknet.js's public node for the network */
  rpcUrl: string | undefined;
  /** the token gas is paid in when the paymaster does not sponsor it (a registry symbol) */
  gasToken: string;
}

export const DEFAULT_SETTINGS: Settings = {
  serverUrl: 'http://127.0.0.1:3001',
  aggregatorUrl: 'https://api.fibrous.finance/starknet',
  aggregatorApiKey: undefined,
  network: 'mainnet',
  sandbox: false,
  slippageBps: 100,
  rpcUrl: undefined,
  gasToken: 'STRK',
};

export type Stored = Omit<Settings, 'aggregatorApiKey' | 'rpcUrl' | 'gasToken'> & {
  aggregatorApiKey?: string;
  rpcUrl?: string;
  gasToken?: string;
};

/**
 * The file's shape, checked with TypeBox when read and before a write (a compiled ajv schema
 * cost ~100 ms of each command's start-up: docs/benchmarks.md).
 */
const StoredSchema = Type.Object({
  serverUrl: Type.String({ maxLength: 2000 }),
  aggregatorUrl: Type.String({ maxLength: 2000 }),
  aggregatorApiKey: Type.Optional(Type.String({ maxLength: 2000 })),
  network: Type.Union([Type.Literal('mainnet'), Type.Literal('sepolia')]),
  sandbox: Type.Boolean(),
  slippageBps: Type.Integer({ minimum: 1, maximum: 5000 }),
  rpcUrl: Type.Optional(Type.String({ maxLength: 2000 })),
  gasToken: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
});
// generated when the bin is built (scripts/bundle-plugins.mjs standaloneChecks)
const StoredCheck = schemaCheck(StoredSchema);

/**
 * The service URLs a person may set, by key and by environment variable: the client adds its own
 * paths to all but the node's, which it uses as given (privateServiceUrlProblem `appendsPaths`).
 */
const SERVICE_URLS = {
  serverUrl: { env: 'FINANCE_TUI_SERVER_URL', appendsPaths: true },
  aggregatorUrl: { env: 'FINANCE_TUI_AGGREGATOR_URL', appendsPaths: true },
  rpcUrl: { env: 'FINANCE_TUI_RPC_URL', appendsPaths: false },
} as const;
type ServiceUrlKey = keyof typeof SERVICE_URLS;

/** What is wrong with stored settings, if anything (names the first bad key). */
export function settingsProblem(stored: unknown): string | undefined {
  const problem = storedProblem(StoredCheck, stored);
  if (problem !== undefined) return problem;
  const urls = stored as Stored;
  for (const key of Object.keys(SERVICE_URLS) as ServiceUrlKey[]) {
    const value = urls[key];
    const problem =
      value === undefined ? undefined : privateServiceUrlProblem(value, key, SERVICE_URLS[key]);
    if (problem !== undefined) return problem;
  }
  // a gas token of another network would make every later start fail: refuse it when saved
  const network = urls.network ?? DEFAULT_SETTINGS.network;
  if (urls.gasToken !== undefined && findToken(network, urls.gasToken) === undefined)
    return `gasToken must be a ${network} token of the registry`;
  return undefined;
}

const SETTINGS_STORE = { configName: 'settings', what: 'settings' } as const;

/** What the file holds before anything is saved (the first save writes them too). */
const STORED_DEFAULTS: Stored = {
  serverUrl: DEFAULT_SETTINGS.serverUrl,
  aggregatorUrl: DEFAULT_SETTINGS.aggregatorUrl,
  network: DEFAULT_SETTINGS.network,
  sandbox: DEFAULT_SETTINGS.sandbox,
  slippageBps: DEFAULT_SETTINGS.slippageBps,
};

/** The environment's override of a service URL, checked as the file's is. */
function envUrl(env: NodeJS.ProcessEnv, key: ServiceUrlKey): string | undefined {
  const { env: name } = SERVICE_URLS[key];
  const value = env[name]?.trim();
  if (!value) return undefined;
  const problem = privateServiceUrlProblem(value, name, SERVICE_URLS[key]);
  if (problem !== undefined) throw new AppError(ErrorCode.CONFIG_ERROR, problem);
  return value.replace(/\/+$/, '');
}

/** The effective settings: file, then environment overrides. */
export function loadSettings(env: NodeJS.ProcessEnv): Settings {
  const stored = readStore({ env, ...SETTINGS_STORE }, STORED_DEFAULTS) as Stored;
  const problem = settingsProblem(stored);
  if (problem !== undefined)
    throw invalidStore(SETTINGS_STORE.what, storeFile(env, SETTINGS_STORE.configName), problem);
  const network = env.FINANCE_TUI_NETWORK?.trim() || stored.network;
  if (!isNetwork(network)) {
    throw new AppError(
      ErrorCode.CONFIG_ERROR,
      `FINANCE_TUI_NETWORK must be mainnet or sepolia (got "${printable(network, 40)}")`,
    );
  }
  const gasToken =
    env.FINANCE_TUI_GAS_TOKEN?.trim() || stored.gasToken || DEFAULT_SETTINGS.gasToken;
  const gas = findToken(network, gasToken);
  if (gas === undefined) {
    throw new AppError(
      ErrorCode.CONFIG_ERROR,
      `the gas token (gasToken / FINANCE_TUI_GAS_TOKEN) must be a ${network} token of the registry (got "${gasToken.slice(0, 40)}")`,
    );
  }
  return {
    serverUrl: envUrl(env, 'serverUrl') ?? stored.serverUrl,
    aggregatorUrl: envUrl(env, 'aggregatorUrl') ?? stored.aggregatorUrl,
    aggregatorApiKey: env.FINANCE_TUI_AGGREGATOR_API_KEY?.trim() || stored.aggregatorApiKey,
    network,
    sandbox: env.FINANCE_TUI_SANDBOX === '1' || stored.sandbox,
    slippageBps: stored.slippageBps,
    rpcUrl: envUrl(env, 'rpcUrl') ?? stored.rpcUrl,
    gasToken: gas.symbol,
  };
}

/**
 * Saves `patch` (keys left undefined are not touched) over the file, checked as a whole first: a
 * bad value is CONFIG_ERROR "not saved: <why>" and nothing is written.
 */
export async function saveSettings(env: NodeJS.ProcessEnv, patch: Partial<Stored>): Promise<void> {
  const defined = Object.fromEntries(
    Object.entries(patch).filter(([, value]) => value !== undefined),
  );
  try {
    await updateStore({ env, ...SETTINGS_STORE }, { ...STORED_DEFAULTS }, (current) => {
      const next = { ...current, ...defined };
      const problem = settingsProblem(next);
      if (problem !== undefined)
        throw new AppError(ErrorCode.CONFIG_ERROR, `not saved: ${problem}`);
      return next;
    });
  } catch (error) {
    if (error instanceof AppError && !error.message.startsWith('not saved: '))
      throw new AppError(ErrorCode.CONFIG_ERROR, `not saved: ${error.message}`, {
        ...(error.details === undefined ? {} : { details: error.details }),
        cause: error,
      });
    throw error;
  }
}
