/**
 * Every action kind reaches every face, driven through the face itself (docs/architecture.md "A
 * kind is one declaration"): the headless program's `--help` offers its command with each
 * declared parameter, the running tool server lists its plan tool with the declared parameters
 * as arguments, the app's menu (or the screen named in `via`) offers it — each kind driven on its
 * screen as a person plans it (a Staking or Lending kind chosen by its label, each required
 * parameter typed in the field its declared label names) and planned by its declared names; a
 * kind routed to a screen this test cannot drive fails — the history records it, and the docs'
 * command tables list it.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from './helpers/home.js';
import { connectMcpInProcess } from './helpers/mcp.js';
import { run } from '../cli/run.js';
import { MENU } from '../cli/ui/screens/home.js';
import { openHistory } from '../cli/core/history.js';
import { ACTION_KIND_NAMES, ACTION_KINDS, type ActionKind } from '../cli/core/actions/kinds.js';
import type { PlanRequest, Portfolio } from '../cli/ui/services.js';
import { SESSION } from './helpers/fake-services.js';
import { chooseAction, openFromHome, signedIn } from './helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from './helpers/tui.js';

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

/** A recipient the core's rule takes on mainnet (not a registry token, the router or the sender). */
const OTHER = `0x0${'2'.repeat(63)}`;

/** The wallet the Portfolio screen shows (one priced token), so its rebalance can be asked. */
const HOLDINGS: Portfolio = {
  network: 'sandbox',
  sandbox: true,
  address: SESSION.walletAddress,
  email: SESSION.email,
  tokens: [
    {
      symbol: 'ETH',
      address: `0x${'1'.repeat(64)}`,
      decimals: 18,
      amount: '1',
      baseUnits: '1000000000000000000',
      price: { usd: '3000.00', scaled: '1' },
      value: { usd: '3000.00', cents: '300000' },
      share: { percent: '100.00', units: 10_000 },
      ifSoldNow: null,
      unpriced: null,
      cached: false,
    },
  ],
  total: { usd: '3000.00', cents: '300000' },
  unpriced: [],
  notes: [],
  pricing: { method: 'm', cacheSeconds: 20, pricesAsOf: null, ageSeconds: 3, fromCache: 0 },
  asOf: '2026-11-25T10:00:00.000Z',
};

/** The screen tests' fake port with every screen offered and quotes answered at once. */
const appServices = (options: Parameters<typeof signedIn>[0] = {}) =>
  signedIn({
    features: { trade: true, multiSwap: true, batch: true, send: true, portfolio: true },
    autoQuoteImpactBps: 5,
    portfolios: [HOLDINGS],
    ...options,
  });

/**
 * A form built from the declarations (Staking, Lending): the kind chosen by its label, each
 * focused field ("› Label") read from the screen and typed with a value of its declared type.
 */
async function driveForm(ui: Rendered, kind: ActionKind): Promise<Record<string, string>> {
  const info = ACTION_KINDS[kind];
  await chooseAction(ui, info.label);
  const params = Object.entries(info.params);
  const typed: Record<string, string> = {};
  for (let i = 0; i < params.length; i++) {
    const focused = /› ([A-Z][a-z]+)/.exec(ui.frame())?.[1];
    const entry = params.find(([, p]) => p.label === focused);
    if (entry === undefined || entry[0] in typed) break;
    const [name, p] = entry;
    typed[name] = p.type === 'validator' ? 'Alpha' : p.type === 'token' ? `T${i}` : `${i + 1}`;
    await ui.type(typed[name]);
    // a form of one field stays as it is
    await ui.press(KEYS.tab, { change: false });
  }
  await ui.press(KEYS.enter);
  return typed;
}

/**
 * How a person plans on each screen the app routes kinds to (a kind's `menu`, else its `via`):
 * the keys typed there, and the values the plan request must carry under the kind's declared
 * names. A kind routed to a screen missing here fails: the app does not offer it.
 */
const SCREENS: Readonly<
  Record<string, (ui: Rendered, kind: ActionKind) => Promise<Record<string, unknown>>>
> = {
  Send: async (ui) => {
    await ui.type('1');
    await ui.press(KEYS.tab, { change: false });
    await ui.press(OTHER);
    await ui.press(KEYS.enter);
    return { amount: '1', token: 'STRK', to: OTHER };
  },
  Trade: async (ui) => {
    await ui.type('5');
    await ui.waitForFrame((f) => f.includes('Price impact'));
    await ui.press(KEYS.enter);
    return { amount: '5', from: 'USDC', to: 'ETH' };
  },
  'Multi-swap': async (ui) => {
    await ui.press('100\t\t\t50');
    await ui.press(KEYS.enter);
    return {
      pairs: [
        { amount: '100', from: 'USDC', to: 'ETH' },
        { amount: '50', from: 'USDC', to: 'ETH' },
      ],
    };
  },
  Batch: async (ui) => {
    await ui.type('7');
    await ui.press(KEYS.enter);
    return { swaps: [{ amount: '7', from: 'USDC', to: 'ETH' }], sends: [] };
  },
  Portfolio: async (ui) => {
    await ui.waitForFrame((f) => f.includes('Total'));
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Target'));
    await ui.press('50 ETH, 50 USDC');
    await ui.press(KEYS.enter);
    return { target: '50 ETH, 50 USDC', band: '2', sellUnlisted: false };
  },
  Staking: driveForm,
  Lending: driveForm,
};

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
      ({ client } = await connectMcpInProcess([], { FINANCE_TUI_HOME: home.dir }));
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

  it.each(ACTION_KIND_NAMES)(
    '%s: the app offers it on its screen, and what is typed there is planned by declared name',
    async (kind) => {
      const info = ACTION_KINDS[kind];
      const screen = info.menu ?? info.via ?? '';
      const drive = Object.hasOwn(SCREENS, screen) ? SCREENS[screen] : undefined;
      // a kind no screen of the app drives is a kind the app does not offer
      if (drive === undefined) expect.fail(`no screen of the app offers ${kind} (${screen})`);
      let asked: PlanRequest | undefined;
      const base = appServices();
      const services = appServices({
        plan: (request) => {
          asked = request;
          return base.plan(request, SESSION, { signal: new AbortController().signal });
        },
      });
      const ui = renderWithProviders(services, { rows: 40, columns: 100 });
      try {
        await openFromHome(ui, screen);
        const typed = await drive(ui, kind);
        await ui.waitForFrame((f) => f.includes(info.review));
        expect(asked?.kind).toBe(kind);
        expect(asked?.params).toEqual(typed);
        for (const [name, p] of Object.entries(info.params))
          if (p.required) expect(Object.keys(typed), `${kind}: ${name}`).toContain(name);
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
