/**
 * The program's JSON files through store.ts: written the one way (shared/fs.ts), read with a
 * clear error. Settings and the session go through these functions.
 */
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempHome } from '../../test/helpers/home.js';
import { readStore, removeStore, updateStore, writeStore } from './store.js';

const home = tempHome();
afterAll(() => home.cleanup());
const name = (configName: string) => ({
  env: { FINANCE_TUI_HOME: home.dir },
  configName,
  what: configName,
});
const mode = (path: string): number => statSync(path).mode & 0o777;

describe('store files', () => {
  it('writes 0600 JSON, reads it back over the defaults, narrows a looser file when read', async () => {
    await writeStore(name('a'), { token: 'secret' });
    const file = join(home.dir, 'a.json');
    expect(mode(file)).toBe(0o600);
    expect(readStore(name('a'), { other: 1 })).toEqual({ other: 1, token: 'secret' });
    chmodSync(file, 0o644);
    readStore(name('a'));
    expect(mode(file)).toBe(0o600);
  });

  it('a file that is not JSON is CONFIG_ERROR naming it, without quoting it; an update leaves it untouched', async () => {
    const file = join(home.dir, 'b.json');
    writeFileSync(file, '{"token": "sk-123', { mode: 0o600 });
    const expected = expect.objectContaining({
      code: 'CONFIG_ERROR',
      message: `the b file ${file} is invalid: it is not valid JSON; fix or delete it`,
    });
    expect(() => readStore(name('b'))).toThrow(expected);
    await expect(updateStore(name('b'), {}, (current) => ({ ...current, x: 1 }))).rejects.toEqual(
      expected,
    );
    expect(readFileSync(file, 'utf8')).toBe('{"token": "sk-123');
  });

  it('an update whose change throws writes nothing; removeStore honours its veto', async () => {
    await writeStore(name('c'), { n: 1 });
    await expect(
      updateStore(name('c'), {}, () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(readStore(name('c'))).toEqual({ n: 1 });
    await removeStore(name('c'), (current) => current?.n === 1);
    expect(readStore(name('c'))).toEqual({ n: 1 });
    await removeStore(name('c'));
    expect(readStore(name('c'), { gone: true })).toEqual({ gone: true });
  });
});
