/**
 * Every action kind reaches every face, driven through the face itself (docs/architecture.md "A
 * kind is one declaration"): the headless program's `--help` offers its command with each
 * declared parameter, the running tool server lists its plan tool with the declared parameters
 * as arguments, the app's menu (or the screen named in `via`) offers it — a kind reached through
 * the Staking or Lending form is chosen there, each required parameter typed in the field its
 * declared label names, and planned by its declared names — the history records it, and the docs'
 * command tables list it.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from './helpers/home.js';
import { connectMcp } from './helpers/mcp.js';
import { run } from '../cli/run.js';
import { MENU } from '../cli/ui/screens/home.js';
import { openHistory } from '../cli/core/history.js';
import { ACTION_KIND_NAMES, ACTION_KINDS, type ActionKind } from '../cli/core/actions/kinds.js';
import type { PlanRequest } from '../cli/ui/services.js';
import { SESSION } from './helpers/fake-services.js';
import { chooseAction, openFromHome, signedIn } from './helpers/screens.js';
import { KEYS, renderWithProviders } from './helpers/tui.js';

const root = resolve(import.meta.dirname, '..');
const text = (path: string): string => readFileSync(join(root, path), 'utf8');
const homes: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const h of homes.splice(0)) h.cleanup();
});

/** The program's answer to `argv`, run in-process as the bin runs it. */
async function program(argv: string[]): Promise<{ code: number; stdout: string }> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await run(argv, {
    env: { FINANCE_TUI_HOME: '/nonexistent-finance-tui-home' },
    stdout,
    stderr: new PassThrough(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    signal: new AbortController().signal,
  });
  return { code, stdout: out };
}

const spellings = (kind: ActionKind): string[] =>
  Object.values(ACTION_KINDS[kind].params).map((p) =>
    'positional' in p.headless
      ? p.headless.word
      : 'flag' in p.headless
        ? `--${p.headless.flag}`
        : `${p.headless.within}`,
  );

describe('every action kind reaches every face', () => {
  it.each(ACTION_KIND_NAMES)(
    '%s: the headless help lists its command, whose --help spells every parameter',
    async (kind) => {
      const { command, summary } = ACTION_KINDS[kind];
      const word = command.split(' ')[0] ?? '';
      const top = await program(['--help']);
      expect(top.stdout).toMatch(new RegExp(`\\n  ${word} +.*`));
      if (!command.includes(' ')) expect(top.stdout).toContain(summary);
      const help = await program([word, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`finance-tui ${command}`);
      for (const spelled of spellings(kind))
        if (!ACTION_KINDS[kind].params[spelled]) expect(help.stdout, spelled).toContain(spelled);
    },
  );

  describe('the tool server', () => {
    let client: Client;
    let tools: Awaited<ReturnType<Client['listTools']>>['tools'];
    beforeAll(async () => {
      const home = tempHome();
      homes.push(home);
      client = await connectMcp([], { FINANCE_TUI_HOME: home.dir });
      ({ tools } = await client.listTools());
    });
    afterAll(async () => client?.close());

    it.each(ACTION_KIND_NAMES)(
      '%s: tools/list has its plan tool, with every declared parameter as an argument',
      (kind) => {
        const info = ACTION_KINDS[kind];
        const tool = tools.find((t) => t.name === info.tool);
        expect(tool, info.tool).toBeDefined();
        const properties = Object.keys(tool?.inputSchema.properties ?? {});
        expect(properties).toEqual(expect.arrayContaining(Object.keys(info.params)));
        const required = tool?.inputSchema.required ?? [];
        for (const [name, p] of Object.entries(info.params))
          expect(required.includes(name), `${info.tool} ${name}`).toBe(p.required);
        expect(client.getInstructions()).toContain(info.tool);
      },
    );
  });

  it.each(ACTION_KIND_NAMES)('%s: the app menu opens it (itself or through its screen)', (kind) => {
    const info = ACTION_KINDS[kind];
    const labels = MENU.map((m) => m.label);
    expect(labels).toContain(info.menu ?? info.via);
  });

  // a kind reached through a screen's form: its action is offered there, every required
  // parameter has a field under its declared label, and what is typed reaches the kind's request
  // under the declared names
  const formKinds = ACTION_KIND_NAMES.filter((k) => {
    const via = ACTION_KINDS[k].via;
    return via === 'Lending' || via === 'Staking';
  });
  it.each(formKinds)(
    '%s: its screen offers it; each required parameter is a field, planned by name',
    async (kind) => {
      const info = ACTION_KINDS[kind];
      let asked: PlanRequest | undefined;
      const base = signedIn();
      const services = signedIn({
        plan: (request) => {
          asked = request;
          return base.plan(request, SESSION, { signal: new AbortController().signal });
        },
      });
      const ui = renderWithProviders(services, { rows: 40, columns: 100 });
      try {
        await openFromHome(ui, info.via ?? '');
        await chooseAction(ui, info.label);
        const params = Object.entries(info.params);
        const typed: Record<string, string> = {};
        // the focused field ("› Label"), read from the screen, typed with a value of its type
        for (let i = 0; i < params.length; i++) {
          const focused = /› ([A-Z][a-z]+)/.exec(ui.frame())?.[1];
          const entry = params.find(([, p]) => p.label === focused);
          if (entry === undefined || entry[0] in typed) break;
          const [name, p] = entry;
          typed[name] =
            p.type === 'validator' ? 'Alpha' : p.type === 'token' ? `T${i}` : `${i + 1}`;
          await ui.type(typed[name]);
          // a form of one field stays as it is
          await ui.press(KEYS.tab, { change: false });
        }
        for (const [name, p] of params)
          if (p.required) expect(Object.keys(typed), `${kind}: ${name}`).toContain(name);
        await ui.press(KEYS.enter);
        await ui.waitForFrame((f) => f.includes(info.review));
        expect(asked?.kind).toBe(kind);
        expect(asked?.params).toEqual(typed);
        expect(info.request(typed as never).kind).toBe(kind);
      } finally {
        ui.unmount();
      }
    },
  );

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
