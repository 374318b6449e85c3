/**
 * sandbox.json through sandbox-state.ts: the one reader (the endpoints), writer (the sandbox)
 * and remover (the sandbox and its parent), over store.ts.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempHome } from '../../test/helpers/home.js';
import {
  readSandboxState,
  removeSandboxState,
  sandboxState,
  writeSandboxState,
} from './sandbox-state.js';

const homes: ReturnType<typeof tempHome>[] = [];
afterAll(() => homes.forEach((home) => home.cleanup()));
/** a data folder of its own for each test (they run in any order) */
function fresh() {
  const home = tempHome();
  homes.push(home);
  return { env: { FINANCE_TUI_HOME: home.dir }, file: join(home.dir, 'sandbox.json') };
}
const state = {
  serverUrl: 'http://127.0.0.1:3001',
  identityUrl: 'http://127.0.0.1:3002',
  aggregatorUrl: 'http://127.0.0.1:3003',
  rpcUrl: 'http://127.0.0.1:3004/rpc',
  pid: 4242,
  chainInstance: 'c0ffee-1',
};

describe('the sandbox state file', () => {
  it('round-trips at 0600; none when absent', async () => {
    const { env, file } = fresh();
    expect(readSandboxState(env)).toBeUndefined();
    await writeSandboxState(env, { ...state, logFile: '/x/server.log' } as typeof state);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readSandboxState(env)).toMatchObject(state);
  });

  it('a file that is not a sandbox state (bad JSON, a URL missing, a bad chain id) is none, never a throw', () => {
    const { env, file } = fresh();
    for (const text of [
      '{"serverUrl": ',
      JSON.stringify({ ...state, aggregatorUrl: undefined }),
      JSON.stringify({ ...state, chainInstance: '../../etc' }),
      JSON.stringify({ ...state, pid: -1 }),
    ]) {
      writeFileSync(file, text, { mode: 0o600 });
      expect(readSandboxState(env)).toBeUndefined();
    }
    expect(sandboxState({ ready: true })).toBeUndefined();
    expect(sandboxState(state)).toEqual(state);
  });

  it('is removed only while it names the given pid (another sandbox may have replaced it)', async () => {
    const { env, file } = fresh();
    await writeSandboxState(env, state);
    await removeSandboxState(env, 1);
    expect(readSandboxState(env)).toMatchObject({ pid: 4242 });
    // no pid to match (a child that never started): not known to be ours, kept
    await removeSandboxState(env, undefined);
    expect(readSandboxState(env)).toMatchObject({ pid: 4242 });
    await removeSandboxState(env, 4242);
    expect(readSandboxState(env)).toBeUndefined();
    expect(() => statSync(file)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    await removeSandboxState(env, 4242); // already gone: nothing to do
  });
});
