import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, tempHome } from '../../test/helpers/home.js';
import { DEFAULT_SETTINGS, loadSettings, settingsProblem } from './settings.js';

const { aggregatorApiKey: _key, ...stored } = DEFAULT_SETTINGS;

describe('settings file checks', () => {
  it.each([
    ['slippage below 1 bps', { slippageBps: 0 }, 'slippageBps must be >= 1'],
    ['slippage not an integer', { slippageBps: 1.5 }, 'slippageBps'],
    ['an unknown network', { network: 'goerli' }, 'network'],
    [
      'a server URL that is not http(s)',
      { serverUrl: 'ftp://example.com' },
      'serverUrl must be an http(s) URL',
    ],
    [
      'an aggregator URL that is not a URL',
      { aggregatorUrl: 'nope' },
      'aggregatorUrl must be an http(s) URL',
    ],
    ['an RPC URL that is not http(s)', { rpcUrl: 'ws://node' }, 'rpcUrl must be an http(s) URL'],
    ['an empty gas token', { gasToken: '' }, 'gasToken'],
    [
      'a gas token the network does not have',
      { network: 'sepolia', gasToken: 'DAI' },
      'gasToken must be a sepolia token of the registry',
    ],
    [
      'a gas token that is no token at all',
      { gasToken: 'NOPE' },
      'gasToken must be a mainnet token of the registry',
    ],
  ])('refuses %s, naming the key', (_label, patch, message) => {
    expect(settingsProblem({ ...stored, ...patch })).toContain(message);
  });

  it('accepts the defaults and an API key', () => {
    expect(settingsProblem(stored)).toBeUndefined();
    expect(settingsProblem({ ...stored, aggregatorApiKey: 'k' })).toBeUndefined();
  });

  it('a bad file is CONFIG_ERROR when loaded', () => {
    const dir = mkdtempSync(join(tmpdir(), 'finance-tui-settings-'));
    try {
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ slippageBps: 99999 }));
      expect(() => loadSettings({ FINANCE_TUI_HOME: dir })).toThrow(
        expect.objectContaining({
          code: 'CONFIG_ERROR',
          message: expect.stringContaining('slippageBps'),
        }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('loadSettings: rpcUrl and gasToken', () => {
  // a data folder per test: one test writes a bad settings file
  let home: ReturnType<typeof tempHome>;
  beforeEach(() => {
    home = tempHome();
  });
  afterEach(() => home.cleanup());
  const env = (extra: Record<string, string> = {}) =>
    cleanEnv({ FINANCE_TUI_HOME: home.dir, ...extra });

  it('defaults: no RPC URL (starknet.js picks its public node), gas in STRK', () => {
    expect(loadSettings(env())).toMatchObject({ rpcUrl: undefined, gasToken: 'STRK' });
  });

  it('the environment overrides; the gas token is resolved in the registry (any case)', () => {
    expect(
      loadSettings(
        env({ FINANCE_TUI_RPC_URL: 'http://127.0.0.1:5050/rpc/', FINANCE_TUI_GAS_TOKEN: 'eth' }),
      ),
    ).toMatchObject({
      rpcUrl: 'http://127.0.0.1:5050/rpc',
      gasToken: 'ETH',
    });
  });

  it('bad values are CONFIG_ERROR naming the setting', () => {
    expect(() => loadSettings(env({ FINANCE_TUI_RPC_URL: 'ftp://x' }))).toThrow(
      /FINANCE_TUI_RPC_URL must be an http\(s\) URL/,
    );
    expect(() => loadSettings(env({ FINANCE_TUI_GAS_TOKEN: 'DOGE' }))).toThrow(
      /gas token .* must be a mainnet token/,
    );
  });

  it('from the settings file; a bad file is CONFIG_ERROR naming it', () => {
    const file = join(home.dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ rpcUrl: 'https://rpc.example.com', gasToken: 'USDC' }));
    expect(loadSettings(env())).toMatchObject({
      rpcUrl: 'https://rpc.example.com',
      gasToken: 'USDC',
    });
    writeFileSync(file, JSON.stringify({ slippageBps: 99999 }));
    expect(() => loadSettings(env())).toThrow(new RegExp(`settings file ${file} is invalid`));
  });
});
