import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, helpText } from './run.js';

describe('helpText', () => {
  it('lists every command with its summary, the summaries in one column after a gap', () => {
    const lines = helpText().split('\n');
    const rows = Object.entries(COMMANDS).map(([name, command]) => {
      const row = lines.find((line) => line.startsWith(`  ${name} `));
      expect(row, name).toBeDefined();
      expect(row).toMatch(new RegExp(`^  ${name}  +\\S`));
      return row?.indexOf(command.summary);
    });
    expect(new Set(rows).size).toBe(1);
  });
});

describe("README.md's commands table", () => {
  it('has a row for every command of the table (its usage starts with the command)', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    const missing = Object.keys(COMMANDS).filter((name) => !readme.includes(`| \`${name}`));
    expect(missing).toEqual([]);
  });
});
