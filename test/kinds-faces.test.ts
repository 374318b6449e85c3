/**
 * The action kinds are listed once (kinds.ts) and every face derives its list from them: this
 * fails when a face leaves a kind out — the headless help, the tool server's plan tools, the
 * app's menu, the history's kinds, the docs' command tables.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempHome } from './helpers/home.js';
import { helpText } from '../cli/run.js';
import { MENU } from '../cli/ui/screens/home.js';
import { openHistory } from '../cli/core/history.js';
import { ACTION_KIND_NAMES, ACTION_KINDS } from '../cli/core/actions/kinds.js';
import { PLAN_TOOLS } from '../cli/mcp/plan-tools.js';

const root = resolve(import.meta.dirname, '..');
const text = (path: string): string => readFileSync(join(root, path), 'utf8');
const homes: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const h of homes.splice(0)) h.cleanup();
});

describe('every action kind reaches every face', () => {
  it.each(ACTION_KIND_NAMES)('%s: headless help names its command with its summary', (kind) => {
    const { command, summary } = ACTION_KINDS[kind];
    const word = command.split(' ')[0] as string;
    expect(helpText()).toMatch(new RegExp(`\\n  ${word} +.*`));
    if (!command.includes(' ')) expect(helpText()).toContain(summary);
  });

  it.each(ACTION_KIND_NAMES)('%s: the tool server registers its plan tool', (kind) => {
    // the plan tools are one map keyed by the kinds (a kind without an entry fails typecheck),
    // registered in one loop; the running server's list is checked in test/mcp-server.test.ts and
    // each entry's input → request mapping in cli/mcp/plan-tools.test.ts
    const server = text('cli/mcp/server.ts');
    if (kind === 'rebalance') expect(server).toContain('ACTION_KINDS.rebalance.tool');
    else {
      expect(server).toContain('planToolKinds(ACTION_KIND_NAMES)');
      expect(Object.keys(PLAN_TOOLS)).toContain(kind);
    }
  });

  it.each(ACTION_KIND_NAMES)('%s: the app menu opens it (itself or through its screen)', (kind) => {
    const info = ACTION_KINDS[kind];
    const labels = MENU.map((m) => m.label);
    expect(labels).toContain(info.menu ?? info.via);
  });

  it.each(ACTION_KIND_NAMES)('%s: the history records it under its kind', async (kind) => {
    const home = tempHome();
    homes.push(home);
    const store = openHistory(home.dir);
    await store.append({
      kind,
      network: 'mainnet',
      sandbox: true,
      account: `0x${'a'.repeat(64)}`,
      hash: `0x${'b'.repeat(64)}`,
      status: 'pending',
      summary: ACTION_KINDS[kind].label,
      amounts: [],
    });
    const { entries } = await store.list();
    expect(entries.map((e) => e.kind)).toEqual([kind]);
  });

  it.each(ACTION_KIND_NAMES)('%s: the docs command tables list its command', (kind) => {
    const command = ACTION_KINDS[kind].command;
    expect(text('README.md')).toContain(`| \`${command}`);
    expect(text('docs/commands.md')).toContain(command);
  });
});
