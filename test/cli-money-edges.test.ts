/**
 * The edges where money or trust is lost (issue 14, docs/architecture.md "Headless output" and
 * "History"), through whole processes: the sandbox in its own process, the built bin signed in
 * as two users, real signals and the sandbox's fault knobs.
 *
 * - Ctrl+C after submission reports the hash (SUBMITTED_UNCONFIRMED, exit 3), the history keeps
 *   it, a retry of the same plan is refused while it is unresolved, and `history` settles it from
 *   the chain once the chain shows it.
 * - The paymaster relays the transaction and its answer is lost: SUBMITTED_UNCONFIRMED (exit 3),
 *   recorded as `unknown`; the retry finds it executed (the account's outside-execution nonce is
 *   used) and is refused: the recipient is paid once.
 * - One hash format: the receipt's hash is the history's, string for string.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliInProcess, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';
import { cleanEnv, spawnBin } from './helpers/process.js';

interface Amount {
  symbol: string;
  baseUnits: string;
}

interface Entry {
  id?: string;
  hash?: string;
  status: string;
  chain?: string;
  fingerprint?: string;
  outside?: { nonce: string; messageHash: string; executeBefore: number };
  amounts: Array<{ to?: string; baseUnits: string }>;
}

const HASH = /^0x[0-9a-f]{64}$/;

function historyFile(home: string): Entry[] {
  try {
    return (JSON.parse(readFileSync(join(home, 'history.json'), 'utf8')) as { entries: Entry[] })
      .entries;
  } catch {
    return [];
  }
}

/** Resolves once the history file holds an entry matching (the send's 'submitted' moment); polls the file. */
async function entryAppears(
  home: string,
  match: (e: Entry) => boolean,
  timeoutMs = 30_000,
): Promise<Entry> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = historyFile(home).find(match);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('no matching history entry appeared');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('money edges through whole processes', () => {
  let users: TwoUsers;

  async function knob(path: string, body: unknown): Promise<void> {
    const response = await fetch(`${users.urls.chainUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
  }

  async function strkOf(home: string): Promise<bigint> {
    const r = await cliInProcess(home, ['balance', 'STRK', '--sandbox', '--json']);
    expect(r.code).toBe(0);
    return BigInt((r.doc.balances as Amount[])[0]?.baseUnits ?? '-1');
  }

  const toBob = (baseUnits: string) => (e: Entry) =>
    e.amounts.some(
      (a) =>
        a.to !== undefined &&
        BigInt(a.to) === BigInt(users.bobAddress) &&
        a.baseUnits === baseUnits,
    );

  beforeAll(async () => {
    users = await startTwoUsers();
  }, 90_000);
  afterAll(async () => {
    await knob('/sandbox/chain/confirm-delay', { ms: 0, release: true }).catch(() => undefined);
    await users?.close();
  }, 120_000);

  it('one hash format: the receipt, `history --json` and the file say the same 0x + 64 hex', async () => {
    const sent = await cliInProcess(users.aliceHome, [
      'send',
      '0.1',
      'STRK',
      users.bobAddress,
      '--yes',
      '--sandbox',
      '--json',
    ]);
    expect(sent.code).toBe(0);
    const hash = (sent.doc.transaction as { hash: string }).hash;
    expect(hash).toMatch(HASH);
    const listed = await cliInProcess(users.aliceHome, ['history', '--json']);
    const entry = (listed.doc.entries as Entry[]).find((e) => e.hash === hash);
    expect(entry).toMatchObject({ hash, status: 'succeeded' });
    expect(entry?.chain).toMatch(/^sandbox:[0-9a-f-]+$/);
    expect(historyFile(users.aliceHome).some((e) => e.hash === hash)).toBe(true);
  }, 120_000);

  it('Ctrl+C after submission: SUBMITTED_UNCONFIRMED with the hash (exit 3); the history keeps it; a retry is refused; `history` settles it', async () => {
    const amount = '1250000000000000000'; // 1.25 STRK
    const bobBefore = await strkOf(users.bobHome);
    // the chain executes at once but its node withholds status and receipt
    await knob('/sandbox/chain/confirm-delay', { ms: 600_000 });
    const proc = spawnBin(
      ['send', '1.25', 'STRK', users.bobAddress, '--yes', '--sandbox', '--json'],
      cleanEnv({ FINANCE_TUI_HOME: users.aliceHome }),
    );
    const pending = await entryAppears(
      users.aliceHome,
      (e) => toBob(amount)(e) && e.status === 'pending',
    );
    proc.kill('SIGINT');
    const { code } = await proc.exited;
    expect(code).toBe(3);
    const doc = JSON.parse(proc.stdout()) as {
      error: { code: string; message: string; details: { transactionHash: string } };
    };
    expect(doc.error.code).toBe('SUBMITTED_UNCONFIRMED');
    expect(doc.error.details.transactionHash).toMatch(HASH);
    expect(doc.error.details.transactionHash).toBe(pending.hash);
    expect(doc.error.message).toContain('finance-tui history');
    expect(historyFile(users.aliceHome).find((e) => e.hash === pending.hash)).toMatchObject({
      status: 'pending',
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await strkOf(users.bobHome)).toBe(bobBefore + BigInt(amount));

    // a script that retries the same send: refused, naming the hash; nothing paid twice
    const retry = await cliInProcess(users.aliceHome, [
      'send',
      '1.25',
      'STRK',
      users.bobAddress,
      '--yes',
      '--sandbox',
      '--json',
    ]);
    expect(retry.code).toBe(1);
    expect(retry.doc.error?.code).toBe('ALREADY_SUBMITTED');
    expect(retry.doc.error?.details?.transactionHash).toBe(pending.hash);
    expect(await strkOf(users.bobHome)).toBe(bobBefore + BigInt(amount));

    // while the node does not know it, history leaves it pending; once it does, history settles it
    expect((await cliInProcess(users.aliceHome, ['history', '--json'])).doc.entries).toEqual(
      expect.arrayContaining([expect.objectContaining({ hash: pending.hash, status: 'pending' })]),
    );
    await knob('/sandbox/chain/confirm-delay', { ms: 0, release: true });
    const settled = await cliInProcess(users.aliceHome, ['history', '--json']);
    expect(settled.doc.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ hash: pending.hash, status: 'succeeded' }),
      ]),
    );
    expect(historyFile(users.aliceHome).find((e) => e.hash === pending.hash)?.status).toBe(
      'succeeded',
    );
  }, 120_000);

  it('Ctrl+C after submission, for a person: one line with the hash that says not to retry (exit 3)', async () => {
    await knob('/sandbox/chain/confirm-delay', { ms: 600_000 });
    try {
      const proc = spawnBin(
        ['send', '0.3', 'STRK', users.bobAddress, '--yes', '--sandbox'],
        cleanEnv({ FINANCE_TUI_HOME: users.aliceHome }),
      );
      const pending = await entryAppears(
        users.aliceHome,
        (e) => toBob('300000000000000000')(e) && e.status === 'pending',
      );
      proc.kill('SIGINT');
      expect((await proc.exited).code).toBe(3);
      expect(proc.stderr()).toContain(pending.hash as string);
      expect(proc.stderr()).toMatch(
        /do not retry; check `finance-tui history`.*\(SUBMITTED_UNCONFIRMED\)/,
      );
    } finally {
      await knob('/sandbox/chain/confirm-delay', { ms: 0, release: true });
    }
  }, 120_000);

  it("the terminal hangs up (SIGHUP) while the relayed transaction's answer is awaited: recorded as unknown (exit 3), the retry refused, paid once", async () => {
    const amount = '900000000000000000'; // 0.9 STRK
    const bobBefore = await strkOf(users.bobHome);
    await knob('/sandbox/faults', {
      loseAnswer: { count: 1, method: 'paymaster_executeTransaction', mode: 'hang' },
    });
    const args = ['send', '0.9', 'STRK', users.bobAddress, '--yes', '--sandbox', '--json'];
    const proc = spawnBin(args, cleanEnv({ FINANCE_TUI_HOME: users.aliceHome }));
    // the paymaster relayed it (bob is paid); only its answer is held
    await vi.waitFor(
      async () => expect(await strkOf(users.bobHome)).toBe(bobBefore + BigInt(amount)),
      { timeout: 60_000, interval: 200 },
    );
    // left to its default, SIGHUP would kill the command before it records what it signed
    proc.kill('SIGHUP');
    proc.kill('SIGHUP'); // the shell passes its own on: one event
    const { code } = await proc.exited;
    expect(code, proc.stderr()).toBe(3);
    expect(JSON.parse(proc.stdout()).error?.code).toBe('SUBMITTED_UNCONFIRMED');
    expect(historyFile(users.aliceHome).find(toBob(amount))?.status).toBe('unknown');
    const retry = await cliInProcess(users.aliceHome, args);
    expect(retry.code).toBe(1);
    expect(retry.doc.error?.code).toBe('ALREADY_SUBMITTED');
    expect(await strkOf(users.bobHome)).toBe(bobBefore + BigInt(amount));
  }, 120_000);

  it("the paymaster's answer is lost after it relayed the transaction: SUBMITTED_UNCONFIRMED (exit 3), recorded; the retry is refused and nothing is paid twice", async () => {
    const amount = '700000000000000000'; // 0.7 STRK
    const bobBefore = await strkOf(users.bobHome);
    await knob('/sandbox/faults', {
      loseAnswer: { count: 1, method: 'paymaster_executeTransaction', mode: 'drop' },
    });
    const first = await cliInProcess(users.aliceHome, [
      'send',
      '0.7',
      'STRK',
      users.bobAddress,
      '--yes',
      '--sandbox',
      '--json',
    ]);
    expect(first.code).toBe(3);
    expect(first.doc.error?.code).toBe('SUBMITTED_UNCONFIRMED');
    expect(first.doc.error?.details).toMatchObject({
      transactionHash: null,
      outsideNonce: expect.stringMatching(HASH),
      messageHash: expect.stringMatching(HASH),
    });
    expect(first.doc.error?.message).toContain('may have been executed');
    const recorded = historyFile(users.aliceHome).find(toBob(amount));
    expect(recorded).toMatchObject({
      status: 'unknown',
      outside: { nonce: first.doc.error?.details?.outsideNonce },
    });
    expect(recorded?.hash).toBeUndefined();
    // it did go through
    expect(await strkOf(users.bobHome)).toBe(bobBefore + BigInt(amount));

    const retry = await cliInProcess(users.aliceHome, [
      'send',
      '0.7',
      'STRK',
      users.bobAddress,
      '--yes',
      '--sandbox',
      '--json',
    ]);
    expect(retry.code).toBe(1);
    expect(retry.doc.error?.code).toBe('ALREADY_SUBMITTED');
    expect(retry.doc.error?.message).toContain('has been executed');
    expect(await strkOf(users.bobHome)).toBe(bobBefore + BigInt(amount));
    // settled from the chain: the account used the outside-execution nonce
    expect(historyFile(users.aliceHome).find(toBob(amount))?.status).toBe('succeeded');
    const human = await cliInProcess(users.aliceHome, ['history']);
    expect(human.stdout).toContain('(hash not received)');
  }, 120_000);
});
