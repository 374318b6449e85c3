import { getStarkKey, utils } from '@scure/starknet';
import { afterAll, describe, expect, it } from 'vitest';
import { argentAccountAddress } from '../../shared/starknet.js';
import { cleanEnv, tempHome } from '../../test/helpers/home.js';
import { addressMatchesKey, saveSession, type Session, sessionState } from './session.js';

describe('sessionState', () => {
  const home = tempHome();
  afterAll(() => home.cleanup());
  const env = cleanEnv({ FINANCE_TUI_HOME: home.dir });
  const where = {
    env,
    sandbox: false,
    network: 'mainnet' as const,
    serverUrl: 'http://127.0.0.1:3001/',
  };
  const publicKey = getStarkKey(utils.randomPrivateKey());
  const session: Session = {
    email: 'a@b.co',
    token: 'eyJ.t.s',
    expiresAt: '2030-01-01T00:00:00.000Z',
    userId: 'u',
    walletId: 'w',
    address: argentAccountAddress(publicKey),
    publicKey,
    serverUrl: 'http://127.0.0.1:3001',
    network: 'mainnet',
    sandbox: false,
  };
  const now = () => Date.parse('2029-06-01T00:00:00Z');

  it('none, usable (the same server URL with a trailing slash), expired: as data, never the token', async () => {
    expect(sessionState(where, { now })).toMatchObject({ signedIn: false, code: 'AUTH_REQUIRED' });
    await saveSession(env, session);
    const state = sessionState(where, { now });
    expect(state).toMatchObject({
      signedIn: true,
      session: { email: 'a@b.co', network: 'mainnet' },
    });
    expect(JSON.stringify(state)).not.toContain('eyJ.t.s');
    expect(sessionState(where, { now: () => Date.parse('2031-01-01T00:00:00Z') })).toMatchObject({
      signedIn: false,
      code: 'SESSION_EXPIRED',
    });
  });

  it('addresses compare as numbers: leading zeros and case do not matter, another key does', () => {
    const padded = `0x${session.address.slice(2).replace(/^0+/, '').toUpperCase()}`;
    expect(addressMatchesKey(padded, publicKey)).toBe(true);
    expect(addressMatchesKey(session.address, getStarkKey(utils.randomPrivateKey()))).toBe(false);
    expect(addressMatchesKey('not hex', publicKey)).toBe(false);
  });
});
