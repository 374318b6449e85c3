import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempHome } from '../../test/helpers/home.js';
import { dataDir } from './paths.js';

describe('dataDir', () => {
  const homes: Array<{ cleanup: () => void }> = [];
  const home = (): string => {
    const made = tempHome();
    homes.push(made);
    return made.dir;
  };
  afterEach(() => homes.splice(0).forEach((h) => h.cleanup()));

  it('FINANCE_TUI_HOME wins, created 0700', () => {
    const dir = join(home(), 'data');
    expect(dataDir({ FINANCE_TUI_HOME: dir, HOME: home() })).toBe(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it.runIf(process.platform === 'linux')(
    "without it, the config folder of the given environment's HOME or XDG_CONFIG_HOME, never this process's",
    () => {
      const person = home();
      expect(dataDir({ HOME: person })).toBe(join(person, '.config', 'finance-tui'));
      expect(process.env.HOME).not.toBe(person);
      const xdg = home();
      expect(dataDir({ HOME: person, XDG_CONFIG_HOME: xdg })).toBe(join(xdg, 'finance-tui'));
      expect(statSync(join(xdg, 'finance-tui')).mode & 0o777).toBe(0o700);
    },
  );
});
