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
