/**
 * `history` for scripts (issue 27 item 14), through the built bin: every entry names the chain it
 * ran on (a sandbox entry is never "mainnet"), `--csv` keeps the sandbox label, and an unresolved
 * entry of a sandbox that has stopped says it can no longer be settled.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedPort, cleanEnv, runBin, tempHome } from './helpers/process.js';

const ACCOUNT = `0x${'1'.padStart(64, '0')}`;
const hash = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;

function entry(n: number, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    time: `2026-11-2${n}T10:00:00.000Z`,
    updatedAt: `2026-11-2${n}T10:00:00.000Z`,
    kind: 'trade',
    network: 'mainnet',
    sandbox: false,
    account: ACCOUNT,
    hash: hash(n),
    status: 'succeeded',
    summary: `trade #${n}`,
    amounts: [],
    ...fields,
  };
}

/** A history of one mainnet trade and four sandbox ones, on a live chain, a stopped one and an unknown one. */
function writeHistory(dir: string): void {
  const entries = [
    entry(1, { chain: 'mainnet' }),
    entry(2, { sandbox: true, chain: 'sandbox:live1' }),
    entry(3, { sandbox: true, chain: 'sandbox:live1', status: 'pending' }),
    entry(4, { sandbox: true, chain: 'sandbox:gone1', status: 'pending' }),
    // written before entries kept their chain
    entry(5, { sandbox: true, status: 'pending' }),
  ];
  writeFileSync(join(dir, 'history.json'), JSON.stringify({ version: 1, entries }), {
    mode: 0o600,
  });
}

/** sandbox.json naming chain live1, written by process `pid`, its RPC a closed port. */
async function writeSandbox(dir: string, pid: number): Promise<void> {
  const url = `http://127.0.0.1:${await closedPort('127.0.0.1')}`;
  writeFileSync(
    join(dir, 'sandbox.json'),
    JSON.stringify({
      serverUrl: url,
      identityUrl: url,
      aggregatorUrl: url,
      rpcUrl: `${url}/rpc`,
      pid,
      chainInstance: 'live1',
    }),
    { mode: 0o600 },
  );
}

interface Listed {
  hash: string;
  network: string;
  chain: string;
  sandbox: boolean;
  status: string;
  unsettleable?: boolean;
}

const byHash = (entries: Listed[], n: number): Listed | undefined =>
  entries.find((e) => e.hash === hash(n));

describe('history for scripts (built bin)', () => {
  it('--json: each entry names its chain; a filter on mainnet counts no sandbox trade; a stopped sandbox orphans its open entries', async () => {
    const home = tempHome();
    try {
      writeHistory(home.dir);
      // the sandbox of chain live1 is "running": its sandbox.json names this (live) process
      await writeSandbox(home.dir, process.pid);
      const r = await runBin(['history', '--json'], cleanEnv({ FINANCE_TUI_HOME: home.dir }));
      expect(r.code).toBe(0);
      const { entries } = JSON.parse(r.stdout) as { entries: Listed[] };
      expect(entries).toHaveLength(5);
      expect(entries.filter((e) => e.network === 'mainnet').map((e) => e.hash)).toEqual([hash(1)]);
      expect(byHash(entries, 1)).toMatchObject({ network: 'mainnet', chain: 'mainnet' });
      expect(byHash(entries, 2)).toMatchObject({
        network: 'sandbox',
        chain: 'sandbox:live1',
        sandbox: true,
        status: 'succeeded',
      });
      // still pending on the running sandbox: it may yet settle
      expect(byHash(entries, 3)).toMatchObject({ chain: 'sandbox:live1', status: 'pending' });
      expect(byHash(entries, 3)?.unsettleable).toBeUndefined();
      // its sandbox is gone (another chain runs), or which sandbox it ran on was never kept
      expect(byHash(entries, 4)).toMatchObject({
        chain: 'sandbox:gone1',
        status: 'orphaned',
        unsettleable: true,
      });
      expect(byHash(entries, 5)).toMatchObject({
        network: 'sandbox',
        chain: 'sandbox:unknown',
        status: 'orphaned',
        unsettleable: true,
      });
    } finally {
      home.cleanup();
    }
  });

  it('once the sandbox has stopped (its process gone), its pending entry is orphaned too; human output says why', async () => {
    const home = tempHome();
    try {
      writeHistory(home.dir);
      const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
      await new Promise((resolve) => child.on('exit', resolve));
      await writeSandbox(home.dir, child.pid ?? 0);
      const env = cleanEnv({ FINANCE_TUI_HOME: home.dir });
      const json = await runBin(['history', '--offline', '--json'], env);
      const { entries } = JSON.parse(json.stdout) as { entries: Listed[] };
      expect(byHash(entries, 3)).toMatchObject({ status: 'orphaned', unsettleable: true });
      const human = await runBin(['history', '--offline'], env);
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(
        new RegExp(
          `orphaned\\s+(earlier )?sandbox\\s+${hash(4)}\\n.*\\n\\s+can no longer be settled: its sandbox stopped`,
        ),
      );
      // the orphan's own lines do not ask to wait for a settlement that cannot come
      const block = human.stdout.split(hash(4))[1]?.split(/\n\d{4}-/)[0] ?? '';
      expect(block).toContain('can no longer be settled');
      expect(block).not.toContain('not settled yet');
    } finally {
      home.cleanup();
    }
  });

  it('--csv keeps the sandbox label and the orphaned status', async () => {
    const home = tempHome();
    try {
      writeHistory(home.dir);
      const r = await runBin(
        ['history', '--offline', '--csv'],
        cleanEnv({ FINANCE_TUI_HOME: home.dir }),
      );
      expect(r.code).toBe(0);
      const rows = r.stdout.trimEnd().split('\r\n');
      expect(rows[0]).toBe('time,kind,network,hash,left,arrived,fee,status');
      const row = (n: number): string[] | undefined =>
        rows.find((line) => line.includes(hash(n)))?.split(',');
      expect(row(1)?.[2]).toBe('mainnet');
      for (const n of [2, 3, 4, 5]) expect(row(n)?.[2]).toBe('sandbox');
      // no sandbox.json: no sandbox runs, so every open sandbox entry is orphaned
      expect(row(3)?.[7]).toBe('orphaned');
      expect(row(2)?.[7]).toBe('succeeded');
    } finally {
      home.cleanup();
    }
  });
});
