/**
 * The auth server over real sockets against a faulty identity provider: 5xx, too slow, gone.
 * Each failure is the documented 502/504 code, and the server keeps serving.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../sandbox/launcher.js';
import { tempHome } from './helpers/process.js';

const devNull = new Writable({ write: (_chunk, _enc, cb) => cb() });

/** A sandbox per describe (its identity provider may be closed for good), and a login helper. */
function faultySandbox() {
  const home = tempHome();
  const state = { sandbox: undefined as unknown as SandboxHandle };
  let n = 0;
  beforeAll(async () => {
    state.sandbox = await startSandbox({
      port: 0,
      dataDir: home.dir,
      inMemory: true,
      logStream: devNull,
      upstreamTimeoutMs: 300,
    });
  });
  afterAll(async () => {
    await state.sandbox?.close();
    home.cleanup();
  });
  const login = async (): Promise<{ status: number; code: string | undefined }> => {
    n += 1;
    const res = await fetch(`${state.sandbox.info.serverUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `fault${n}@example.com` }),
    });
    const body = (await res.json()) as { error?: { code: string } };
    return { status: res.status, code: body.error?.code };
  };
  return {
    get sandbox() {
      return state.sandbox;
    },
    login,
  };
}

describe('auth server with a faulty identity provider', () => {
  const s = faultySandbox();

  it('upstream 500 → 502 IDENTITY_PROVIDER_ERROR', async () => {
    s.sandbox.identity.faults.apply({ failNext: { count: 1, status: 500 } });
    expect(await s.login()).toEqual({ status: 502, code: 'IDENTITY_PROVIDER_ERROR' });
  });

  it('upstream slower than the timeout → 504 UPSTREAM_TIMEOUT', async () => {
    s.sandbox.identity.faults.apply({ latencyMs: 1_000 });
    try {
      expect(await s.login()).toEqual({ status: 504, code: 'UPSTREAM_TIMEOUT' });
    } finally {
      s.sandbox.identity.faults.apply({ latencyMs: 0 });
    }
  });

  it('a dropped connection → 502, and the next request succeeds', async () => {
    s.sandbox.identity.faults.apply({ failNext: { count: 1, drop: true } });
    expect(await s.login()).toEqual({ status: 502, code: 'IDENTITY_PROVIDER_ERROR' });
    expect(await s.login()).toEqual({ status: 200, code: undefined });
  });
});

describe('auth server whose identity provider is gone', () => {
  const s = faultySandbox();

  it('upstream gone → 502, and the server keeps serving', async () => {
    await s.sandbox.identity.close();
    expect(await s.login()).toEqual({ status: 502, code: 'IDENTITY_PROVIDER_ERROR' });
    const health = await fetch(`${s.sandbox.info.serverUrl}/health`);
    expect(health.status).toBe(200);
  });
});
