/**
 * The whole program in a real terminal: the built `finance-tui --sandbox` in tmux, signed in
 * with the code from the sandbox outbox, the funded wallet's balances, a live quote, a real swap
 * of 100 USDC for ETH (review, confirm, receipt), a real transfer of 1 STRK to another address
 * through to its receipt, a batch of a swap and a transfer, all three in the history, keys sent in
 * one burst, a settings save that waits for another process's file lock without freezing the
 * screen, then Ctrl+C — and the terminal must be restored
 * (stty shows icanon and echo again) and the sandbox child gone. And without the sandbox: nothing
 * answers at the loopback server URL, so the app starts the bundled auth server, says so, signs
 * in through it, and stops it on Ctrl+C.
 * The three terminals run side by side, each its own tmux server, data folder and app (and port
 * for the auth server): the journey holds one of the run's workers for ~20 s, mostly waiting on
 * the app, and the two without the sandbox fit in that wait (docs/decisions.md "The terminal
 * tests wait for the pane's output").
 * Skipped, saying why, only when tmux is not installed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { buildIdentityEmulator } from '../sandbox/identity/app.js';
import { runInProcess } from './helpers/in-process.js';
import { BIN, cleanEnv, quietPort, tempHome } from './helpers/process.js';
import {
  appThen,
  hasTmux,
  menuTo as menuOf,
  openTerminal,
  signInFromOutbox,
  type Terminal,
} from './helpers/terminal.js';

if (!hasTmux)
  console.warn(
    'tui-terminal: tmux is not installed; the whole-program TUI tests are skipped (.ci/run installs it)',
  );

describe.skipIf(!hasTmux).concurrent('finance-tui in a terminal (tmux)', () => {
  const home = tempHome();
  let term: Terminal;
  const tmux = (...args: string[]): string => term.tmux(...args);
  const screen = (): string => term.screen();
  const waitFor = (text: string | RegExp, timeoutMs?: number): Promise<string> =>
    term.waitFor(text, timeoutMs);
  const waitUntil = (done: () => boolean, what: string, timeoutMs?: number): Promise<void> =>
    term.waitUntil(done, what, timeoutMs);

  const visible = (): string => term.visible();
  const RECIPIENT = `0x0${'5'.repeat(63)}`;
  const menuTo = (label: string): Promise<void> => menuOf(term, label);

  /** an SGR sequence that turns on inverse video (7), alone or among other attributes */
  const INVERSE = new RegExp(`${String.fromCharCode(27)}\\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m`);
  /** focus shows only as the inverse cursor: read the pane with its attributes */
  const waitForCursorOn = (label: string): Promise<void> =>
    waitUntil(
      () =>
        tmux('capture-pane', '-p', '-e', '-t', 'app')
          .split('\n')
          // the focused field's label carries "› " (seen without colour too)
          .some(
            (line) => stripVTControlCharacters(line).startsWith(`› ${label}`) && INVERSE.test(line),
          ),
      `the cursor in the ${label} field`,
    );

  beforeAll(() => {
    term = openTerminal(
      'sandbox',
      cleanEnv({ FINANCE_TUI_HOME: home.dir, TERM: 'xterm-256color' }),
      appThen('--sandbox'),
    );
  });
  afterAll(() => {
    term?.close();
    home.cleanup();
  });

  it(
    'signs in from the outbox, quotes live, swaps 100 USDC for ETH, sends 1 STRK, runs a batch, each to its receipt, lists them in the history, and Ctrl+C restores the terminal',
    { timeout: 300_000 },
    async ({ expect }) => {
      await waitFor('Sign in');
      expect(screen()).toContain('SANDBOX');
      expect(screen()).toContain('started the local sandbox for this session');
      await signInFromOutbox(term, 'alice@example.com');
      // the sandbox funds a new wallet: balances from its chain, valued at the aggregator's prices
      expect(await waitFor(/Total \$[0-9,]+\.[0-9]{2}/)).toMatch(
        /10000 USDC\s+\$[0-9,]+\.[0-9]{2}/,
      );

      tmux('send-keys', '-t', 'app', 'Enter'); // Trade
      await waitFor('balance 10000 USDC');
      // a decimal comma stays as typed and is refused in the headless command's own words
      tmux('send-keys', '-t', 'app', '-l', '1,5');
      const comma = await waitFor('write 1.5');
      expect(comma).toMatch(/› Amount\s+1,5\s/);
      // the headless command in this worker (its refusal is the subject, not its start)
      const headless = await runInProcess(
        ['quote', '1,5', 'USDC', 'ETH', '--sandbox', '--json'],
        cleanEnv({ FINANCE_TUI_HOME: home.dir }),
      );
      const refusal = (JSON.parse(headless.stdout) as { error: { code: string; message: string } })
        .error;
      expect(refusal.code).toBe('INVALID_AMOUNT');
      expect(comma.replace(/\s+/g, ' ')).toContain(refusal.message);
      for (let i = 0; i < 3; i++) tmux('send-keys', '-t', 'app', 'BSpace');
      await waitUntil(
        () => !screen().includes('write 1.5'),
        'the comma error to go with the comma',
      );
      tmux('send-keys', '-t', 'app', 'C-x'); // max: the whole USDC balance
      await waitFor(/Amount\s+10000\s+balance 10000 USDC/);
      for (let i = 0; i < 5; i++) tmux('send-keys', '-t', 'app', 'BSpace');
      tmux('send-keys', '-t', 'app', '-l', '100');
      const quoted = await waitFor(/You receive \(est\.\)\s+0\.\d+ ETH/);
      expect(quoted).toContain('Minimum received');
      expect(quoted).toMatch(/Route\s+100% USDC → ETH/);

      // the swap: planned and simulated (nothing signed), reviewed, confirmed, executed, its receipt
      tmux('send-keys', '-t', 'app', 'Enter');
      const swapReview = await waitFor(/Review the swap[\s\S]*y sign and send/, 60_000);
      expect(swapReview).toContain('approve 100 USDC to the router');
      expect(swapReview).toMatch(/swap 100 USDC for at least 0\.\d+ ETH/);
      expect(swapReview).toContain('−100 USDC');
      expect(swapReview).toMatch(/This first transaction also deploys your wallet's account/);
      tmux('send-keys', '-t', 'app', '-l', 'y');
      const swapReceipt = await waitFor(/✓ Swap confirmed\s+0x[0-9a-f]+/, 90_000);
      expect(swapReceipt).toContain('−100 USDC');
      expect(swapReceipt).toMatch(/received 0\.\d+ ETH \(you confirmed at least 0\.\d+ ETH\)/);
      tmux('send-keys', '-t', 'app', 'Enter');
      await waitFor('› Trade');
      // the balances read again on arrival: 100 USDC fewer
      await waitFor(/9900 USDC\s+\$/);

      await menuTo('Send');
      tmux('send-keys', '-t', 'app', 'Enter');
      await waitFor('balance 20000 STRK');
      await waitForCursorOn('Amount');
      tmux('send-keys', '-t', 'app', '-l', '1');
      await waitFor(/Amount\s+1\s+balance 20000 STRK/);
      tmux('send-keys', '-t', 'app', 'Tab');
      await waitForCursorOn('To');
      tmux('send-keys', '-t', 'app', '-l', RECIPIENT);
      await waitFor(RECIPIENT);
      tmux('send-keys', '-t', 'app', 'Enter');
      const review = await waitFor('Review the transfer', 60_000);
      expect(review).toMatch(/1\. send 1 STRK to 0x/);
      expect(review).toContain(RECIPIENT);
      expect(review).toMatch(/gas: (sponsored|at most [0-9.]+ STRK)/);
      expect(review).toContain('−1 STRK');
      tmux('send-keys', '-t', 'app', '-l', 'y');
      const receipt = await waitFor(/✓ Sent 1 STRK to 0x[0-9a-f]+\s+0x[0-9a-f]+/, 90_000);
      // the exact change read from the chain before and after (a fee, if paid in STRK, is part of it)
      expect(receipt).toMatch(/−1(\.[0-9]+)? STRK/);
      tmux('send-keys', '-t', 'app', 'Enter');
      await waitFor('› Trade');

      // a batch: a swap row and a send row, one transaction (each key waited for on screen)
      await menuTo('Batch');
      tmux('send-keys', '-t', 'app', 'Enter');
      await waitFor(/1\. swap amount\s+USDC → ETH/);
      tmux('send-keys', '-t', 'app', '-l', '10');
      await waitFor(/1\. swap 10\s+USDC → ETH/);
      tmux('send-keys', '-t', 'app', 'C-t');
      await waitFor(/2\. send amount\s+STRK/);
      tmux('send-keys', '-t', 'app', '-l', '2');
      await waitFor(/2\. send 2\s+STRK/);
      tmux('send-keys', '-t', 'app', 'Tab');
      await waitFor('type to filter the tokens');
      tmux('send-keys', '-t', 'app', 'Tab');
      await waitUntil(
        () => !screen().includes('type to filter the tokens'),
        'the cursor in the recipient field',
      );
      tmux('send-keys', '-t', 'app', '-l', RECIPIENT);
      await waitFor(RECIPIENT);
      tmux('send-keys', '-t', 'app', 'Enter');
      const batchReview = await waitFor(/Review the batch[\s\S]*y sign and send/, 60_000);
      expect(batchReview).toMatch(/1\. swap 10 USDC → at least 0\.\d+ ETH/);
      expect(batchReview).toContain(`2. send 2 STRK to ${RECIPIENT}`);
      expect(batchReview).toContain(`transfer 2 STRK to ${RECIPIENT}`);
      tmux('send-keys', '-t', 'app', '-l', 'y');
      const batchReceipt = await waitFor(/✓ Batch confirmed\s+0x[0-9a-f]+/, 90_000);
      expect(batchReceipt).toContain('−10 USDC');
      tmux('send-keys', '-t', 'app', 'Enter');
      await waitFor('› Trade');

      // the three transactions in the history, newest first
      await menuTo('History');
      tmux('send-keys', '-t', 'app', 'Enter');
      const history = await waitFor(/History \(1 of 3/);
      // each kind by its label, in one column
      expect(history).toMatch(/› .*✓ Batch\s+.*10 USDC/);
      expect(history).toMatch(/✓ Send\s+.*1 STRK/);
      expect(history).toMatch(/✓ Trade\s+.*100 USDC/);
      tmux('send-keys', '-t', 'app', 'Escape');
      await waitFor('› History');

      // a batch of a supply, a stake and a send: one transaction (issue 32: Batch in the app has
      // every row the headless batch has); the swap row it opens with is removed (Ctrl+D)
      await menuTo('Batch');
      tmux('send-keys', '-t', 'app', 'Enter');
      await waitFor(/1\. swap amount\s+USDC → ETH/);
      tmux('send-keys', '-t', 'app', 'C-u');
      await waitFor(/2\. supply amount\s+USDC/);
      tmux('send-keys', '-t', 'app', '-l', '5');
      await waitFor(/2\. supply 5\s+USDC/);
      tmux('send-keys', '-t', 'app', 'C-k');
      await waitFor(/3\. stake amount\s+STRK/);
      tmux('send-keys', '-t', 'app', '-l', '1');
      await waitFor(/3\. stake 1\s+STRK/);
      tmux('send-keys', '-t', 'app', 'Tab');
      await waitFor('type to filter the tokens');
      tmux('send-keys', '-t', 'app', 'Tab');
      await waitUntil(
        () => !screen().includes('type to filter the tokens'),
        'the cursor in the validator field',
      );
      tmux('send-keys', '-t', 'app', '-l', 'Sandbox Alpha');
      await waitFor(/3\. stake 1\s+STRK → Sandbox Alpha/);
      tmux('send-keys', '-t', 'app', 'C-t');
      await waitFor(/4\. send amount\s+STRK/);
      tmux('send-keys', '-t', 'app', '-l', '3');
      await waitFor(/4\. send 3\s+STRK/);
      tmux('send-keys', '-t', 'app', 'Tab');
      await waitFor('type to filter the tokens');
      tmux('send-keys', '-t', 'app', 'Tab');
      await waitUntil(
        () => !screen().includes('type to filter the tokens'),
        'the cursor in the recipient field',
      );
      tmux('send-keys', '-t', 'app', '-l', RECIPIENT);
      await waitFor(RECIPIENT);
      // Enter on a form with an empty field goes to it: the swap row's amount; Ctrl+D removes it
      tmux('send-keys', '-t', 'app', 'Enter');
      await waitUntil(() => /› 1\. swap/.test(visible()), 'the focus on the empty swap row');
      tmux('send-keys', '-t', 'app', 'C-d');
      await waitFor(/1\. supply 5\s+USDC/);
      tmux('send-keys', '-t', 'app', 'Enter');
      const threeReview = await waitFor(/Review the batch[\s\S]*y sign and send/, 60_000);
      expect(threeReview).toMatch(/(supply|deposit) 5 USDC/);
      expect(threeReview).toMatch(/stake 1 STRK/);
      expect(threeReview).toContain(`send 3 STRK to ${RECIPIENT}`);
      expect(threeReview).toMatch(/one transaction/);
      tmux('send-keys', '-t', 'app', '-l', 'y');
      // the second batch receipt (the first is still in the scrollback)
      await waitUntil(
        () => (screen().match(/✓ Batch confirmed\s+0x[0-9a-f]+/g) ?? []).length === 2,
        'the second batch receipt',
        90_000,
      );
      const threeReceipt = screen().slice(screen().lastIndexOf('✓ Batch confirmed'));
      expect(threeReceipt).toContain('−5 USDC');
      expect(threeReceipt).toMatch(/−4 STRK/);
      tmux('send-keys', '-t', 'app', 'Enter');
      await waitFor('› Trade');

      // keys that arrive together (one send-keys, as a paste or a fast typist): "100", Tab ×3
      // and "50" fill row 1 and row 2 — never "10050" in row 1
      await menuTo('Multi-swap');
      tmux('send-keys', '-t', 'app', 'Enter');
      await waitUntil(
        () => /Multi-swap[\s\S]*1\. swap amount\s+USDC → ETH/.test(visible()),
        'the multi-swap form',
      );
      tmux('send-keys', '-t', 'app', '-l', '100\t\t\t50');
      await waitUntil(() => /2\. swap 50\s+USDC → ETH/.test(visible()), 'row 2 typed');
      const rows = visible();
      expect(rows).toMatch(/1\. swap 100 USDC → ETH/);
      expect(rows).not.toContain('10050');
      tmux('send-keys', '-t', 'app', 'Escape');
      await waitFor('› Multi-swap');

      // 80×24: every menu entry drawn, the cursor reaches Log out; the sandbox's settings say so
      tmux('resize-window', '-t', 'app', '-x', '80', '-y', '24');
      const labels = [
        'Trade',
        'Multi-swap',
        'Batch',
        'Send',
        'History',
        'Status',
        'Portfolio',
        'Staking',
        'Lending',
        'Settings',
        'Log out',
      ];
      await waitUntil(
        () =>
          tmux('display-message', '-p', '-t', 'app', '#{window_width}x#{window_height}').trim() ===
          '80x24',
        'the window at 80×24',
      );
      await waitUntil(
        () => labels.every((label) => visible().includes(label)),
        'every menu entry on the 80×24 screen',
      );
      await menuTo('Settings');
      tmux('send-keys', '-t', 'app', 'Enter');
      const settings = await waitFor('In use now');
      expect(settings).toContain('In use now: the sandbox');
      expect(settings).toMatch(/Aggregator\s+http:\/\/127\.0\.0\.1:\d+/);

      // another process holds the settings file's lock (a live pid, not the app's): saving waits
      // for it without freezing the screen, says so, takes keys meanwhile, and saves once released
      const holder = spawn('sleep', ['600'], { stdio: 'ignore' });
      const lock = join(home.dir, 'settings.json.lock');
      const WAITING = 'waiting for another finance-tui to finish writing the settings file…';
      try {
        writeFileSync(lock, `${holder.pid} held-by-another-finance-tui`, { mode: 0o600 });
        tmux('send-keys', '-t', 'app', 'Right'); // the default slippage: 1% → 2%
        await waitUntil(() => /› Default slippage\s+2%/.test(visible()), 'the slippage changed');
        tmux('send-keys', '-t', 'app', 'Enter');
        await waitUntil(() => visible().includes(WAITING), 'the app saying it waits for the lock');
        tmux('send-keys', '-t', 'app', 'Down');
        await waitUntil(() => visible().includes('› Gas token'), 'a key handled while it waits');
        expect(visible()).toContain(WAITING);
        expect(visible()).not.toContain('saved;');
        rmSync(lock); // the other process is done with the file
        await waitUntil(() => visible().includes('saved;'), 'the settings saved');
      } finally {
        holder.kill();
        rmSync(lock, { force: true });
      }
      expect(visible()).not.toContain(WAITING);
      expect(JSON.parse(readFileSync(join(home.dir, 'settings.json'), 'utf8'))).toMatchObject({
        slippageBps: 200,
      });
      tmux('send-keys', '-t', 'app', 'Escape');
      await waitFor('› Settings');
      await menuTo('Log out');

      const sandbox = JSON.parse(readFileSync(join(home.dir, 'sandbox.json'), 'utf8')) as {
        pid: number;
      };
      tmux('send-keys', '-t', 'app', 'C-c');
      // stty's local-modes line (icanon … echo) is a later write than its first: wait for it
      const after = await waitFor(/EXIT:\d+[\s\S]*speed[\s\S]*icanon[\s\S]*echo/);
      expect(after).toContain('EXIT:0');
      // the terminal is back in cooked mode: canonical input and echo are on again
      const stty = after.slice(after.indexOf('EXIT:'));
      expect(stty).toMatch(/(^|\s)icanon(\s|$)/m);
      expect(stty).toMatch(/(^|\s)echo(\s|$)/m);
      // the sandbox child the app started has stopped
      expect(() => process.kill(sandbox.pid, 0)).toThrow(
        expect.objectContaining({ code: 'ESRCH' }),
      );
    },
  );
});

describe
  .skipIf(!hasTmux)
  .concurrent('finance-tui in a terminal, without the sandbox (tmux)', () => {
    const APP_ID = 'tui-terminal-app';
    const APP_SECRET = 'tui-terminal-app-secret-value';
    // each test its own data folder (session, settings, serve-child.log): they run side by side
    const homes: Array<ReturnType<typeof tempHome>> = [];
    const newHome = (): ReturnType<typeof tempHome> => {
      const home = tempHome();
      homes.push(home);
      return home;
    };
    let identity: FastifyInstance;
    let term: Terminal | undefined;

    let identityUrl: string;
    /** ports handed out here: two tests side by side must not be given the same one */
    const taken = new Set<number>();
    /**
     * A loopback URL nothing answers at, not another test's: below the ephemeral range, so the
     * sandbox the journey beside it starts (its servers on port 0) cannot take it meanwhile.
     */
    const freeServerUrl = async (): Promise<string> => {
      for (;;) {
        const port = await quietPort('127.0.0.1');
        if (taken.has(port)) continue;
        taken.add(port);
        return `http://127.0.0.1:${port}`;
      }
    };
    /** the app without the sandbox: it starts its own auth server at `serverUrl` */
    const appEnv = (home: string, serverUrl: string): NodeJS.ProcessEnv =>
      cleanEnv({
        FINANCE_TUI_HOME: home,
        TERM: 'xterm-256color',
        FINANCE_TUI_SERVER_URL: serverUrl,
        IDENTITY_APP_ID: APP_ID,
        IDENTITY_APP_SECRET: APP_SECRET,
        JWT_SECRET: 'FQaItFYZMCxb83N_OP6F9SkgOKaMLGcVi1cXdBCLP7g',
        IDENTITY_AUTH_URL: `${identityUrl}/api/v1`,
        IDENTITY_API_URL: identityUrl,
        NODE_ENV: 'test',
      });

    beforeAll(async () => {
      identity = await buildIdentityEmulator({ appId: APP_ID, appSecret: APP_SECRET });
      identityUrl = await identity.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => {
      term?.close();
      await identity.close();
      homes.forEach((home) => home.cleanup());
    });

    it(
      'starts the bundled auth server for the session, says so, signs in through it, and stops it on Ctrl+C',
      { timeout: 120_000 },
      async ({ expect }) => {
        const home = newHome();
        const serverUrl = await freeServerUrl();
        const env = appEnv(home.dir, serverUrl);
        term = openTerminal('serve', env, appThen(''));
        const signIn = await term.waitFor('Sign in');
        expect(signIn).toContain(
          `started the auth server for this session (logs: ${join(home.dir, 'serve-child.log')})`,
        );
        expect(signIn).not.toContain('SANDBOX');
        // no sandbox: no outbox key
        expect(signIn).not.toContain('Ctrl+F');
        expect((await fetch(`${serverUrl}/health`)).status).toBe(200);

        term.keys({ text: 'frank@example.com' }, 'Enter');
        await term.waitFor('code sent to frank@example.com');
        const mail = (await (
          await fetch(`${identityUrl}/sandbox/outbox/frank%40example.com`)
        ).json()) as { code: string };
        term.keys({ text: mail.code });
        await term.waitFor('••••••');
        term.keys('Enter');
        await term.waitFor(/Wallet\s+0x[0-9a-f]{4}…[0-9a-f]{4}/);

        term.keys('C-c');
        const after = await term.waitFor(/EXIT:\d+[\s\S]*speed/);
        expect(after).toContain('EXIT:0');
        // the server the app started is gone with it; its log kept the requests, not the code
        await expect(fetch(`${serverUrl}/health`)).rejects.toMatchObject({
          cause: { code: 'ECONNREFUSED' },
        });
        const log = readFileSync(join(home.dir, 'serve-child.log'), 'utf8');
        expect(log).toContain('/auth/verify');
        expect(log).not.toContain(mail.code);
      },
    );

    it(
      'an unreadable test knob: the error and its code before anything starts, exit 1, the terminal as it was',
      { timeout: 60_000 },
      async ({ expect }) => {
        const home = newHome();
        const serverUrl = await freeServerUrl();
        const knob = openTerminal(
          'knob',
          { ...appEnv(home.dir, serverUrl), FINANCE_TUI_LIVE_READ_MS: '1.5s' },
          appThen(''),
        );
        try {
          const after = await knob.waitFor(/EXIT:\d+[\s\S]*speed[\s\S]*icanon[\s\S]*echo/);
          expect(after).toContain(
            'error: FINANCE_TUI_LIVE_READ_MS must be whole milliseconds from 100 to 600000 (got "1.5s") (CONFIG_ERROR)',
          );
          expect(after).toContain('EXIT:1');
          expect(after).not.toMatch(/\n\s+at |Sign in/);
          // Ink never took the terminal: the line discipline is as the shell left it
          expect(after).toMatch(/(^|\s)icanon(\s|$)/m);
          expect(after).toMatch(/(^|\s)echo(\s|$)/m);
        } finally {
          knob.close();
        }
        // no auth server was started for the session
        await expect(fetch(`${serverUrl}/health`)).rejects.toMatchObject({
          cause: { code: 'ECONNREFUSED' },
        });
      },
    );

    it(
      'a terminal that goes away stops the app and its auth server as a signal does: exit 2, no stack, no orphan',
      { timeout: 120_000 },
      async ({ expect }) => {
        const home = newHome();
        const serverUrl = await freeServerUrl();
        const errFile = join(home.dir, 'app.stderr');
        const exitFile = join(home.dir, 'app.exit');
        const shellFile = join(home.dir, 'app.shell');
        // the shell outlives the hang-up (its trap runs once the app is done) to write the exit code
        const gone = openTerminal(
          'hangup',
          appEnv(home.dir, serverUrl),
          `echo $$ > '${shellFile}'; trap 'true' HUP; '${process.execPath}' '${BIN}' 2> '${errFile}'; echo $? > '${exitFile}'`,
        );
        try {
          await gone.waitFor('Sign in');
          expect((await fetch(`${serverUrl}/health`)).status).toBe(200);
          // as an interactive shell passes the hang-up on: SIGHUP to the app, then the terminal ends
          const shell = readFileSync(shellFile, 'utf8').trim();
          const children = (): string => {
            try {
              return readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8');
            } catch {
              // a kernel without that file: ps reads the same table
              return execFileSync('ps', ['-o', 'pid=', '--ppid', shell], { encoding: 'utf8' });
            }
          };
          const app = Number(children().trim().split(/\s+/)[0]);
          process.kill(app, 'SIGHUP');
        } finally {
          gone.close(); // the terminal closes: its input ends, every write fails
        }
        const exitCode = (): string => {
          try {
            return readFileSync(exitFile, 'utf8').trim();
          } catch {
            return '';
          }
        };
        // the terminal is gone (its screen cannot be read): wait for the shell's word
        await vi.waitFor(() => expect(exitCode()).not.toBe(''), { timeout: 60_000, interval: 100 });
        // 2: stopped from outside, through the graceful path (a forced exit is 130)
        expect(exitCode()).toBe('2');
        expect(readFileSync(errFile, 'utf8')).not.toMatch(/Error|\n\s+at /);
        await expect(fetch(`${serverUrl}/health`)).rejects.toMatchObject({
          cause: { code: 'ECONNREFUSED' },
        });
      },
    );
  });
