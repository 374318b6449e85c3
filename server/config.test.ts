import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const base = { IDENTITY_APP_ID: 'app', IDENTITY_APP_SECRET: 'secret', JWT_SECRET: 'x'.repeat(32) };

describe('sponsored gas settings', () => {
  it('off with a daily limit of 10 unless told otherwise', () => {
    expect(loadConfig(base)).toMatchObject({ paymasterSponsored: false, sponsoredDailyLimit: 10 });
  });

  it.each([
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
  ])('PAYMASTER_SPONSORED=%s → %s', (value, expected) => {
    expect(loadConfig({ ...base, PAYMASTER_SPONSORED: value }).paymasterSponsored).toBe(expected);
  });

  it('reads PAYMASTER_SPONSORED_DAILY_LIMIT', () => {
    expect(loadConfig({ ...base, PAYMASTER_SPONSORED_DAILY_LIMIT: '3' }).sponsoredDailyLimit).toBe(3);
  });

  it.each([
    { env: { PAYMASTER_SPONSORED: 'yes' }, name: 'PAYMASTER_SPONSORED' },
    { env: { PAYMASTER_SPONSORED_DAILY_LIMIT: '0' }, name: 'PAYMASTER_SPONSORED_DAILY_LIMIT' },
    { env: { PAYMASTER_SPONSORED_DAILY_LIMIT: '1001' }, name: 'PAYMASTER_SPONSORED_DAILY_LIMIT' },
    { env: { PAYMASTER_SPONSORED_DAILY_LIMIT: 'ten' }, name: 'PAYMASTER_SPONSORED_DAILY_LIMIT' },
  ])('$env → one problem naming $name', ({ env, name }) => {
    let caught: unknown;
    try {
      loadConfig({ ...base, ...env });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([expect.stringContaining(name)]);
  });
});
