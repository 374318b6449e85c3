/**
 * The server holds the agent's budget (issue 33 item 8), through real processes: a sandbox, the
 * built bin's `grant create/list/revoke` as the signed-in person, and `finance-tui mcp --grant
 * FILE` in a data folder with no session at all, driven by the MCP SDK's client over stdio on a
 * host that cannot ask. Grants made, balances and the poll for an expiry run the built program
 * in this worker, as the tool servers do (their result is the subject); the refusals of bad
 * input, `grant list`, `grant revoke` and a tool server that does not start spawn the bin. A grant of 50 USDC a day: 30 is sent, the next 30 is refused by the auth
 * server even after mcp-budget.json is deleted and the tool server restarted; a transfer to an
 * address the grant does not list is refused by the server; a raw hash signed with the grant
 * token is refused; a revoked grant and an expired one sign nothing.
 */
import { copyFileSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cli, cliInProcess, signIn, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';
import { callTool, connectMcpInProcess, errorOf, planAndExecute } from './helpers/mcp.js';
import { tempHome } from './helpers/process.js';

describe('agent grants: mcp --grant against the sandbox', () => {
  let users: TwoUsers;
  let person: string;
  let agent: string;
  const open: Client[] = [];
  const cleanups: Array<() => void> = [];

  const home = (): string => {
    const h = tempHome();
    cleanups.push(h.cleanup);
    copyFileSync(join(users.aliceHome, 'sandbox.json'), join(h.dir, 'sandbox.json'));
    return h.dir;
  };
  async function connect(args: string[]): Promise<Client> {
    const { client } = await connectMcpInProcess(['--sandbox', '--allow-execute', ...args], {
      FINANCE_TUI_HOME: agent,
    });
    open.push(client);
    return client;
  }
  const usdcOf = async (h: string): Promise<string> => {
    const r = await cliInProcess(h, ['balance', 'USDC', '--sandbox', '--json']);
    return (r.doc.balances as Array<{ baseUnits: string }>)[0]?.baseUnits ?? 'none';
  };
  async function createGrant(file: string, extra: string[]): Promise<string> {
    const made = await cliInProcess(person, [
      'grant',
      'create',
      '--daily',
      '50 USDC',
      '--allow-recipient',
      users.bobAddress,
      '--out',
      file,
      '--sandbox',
      '--json',
      ...extra,
    ]);
    expect(made.code, made.stdout + made.stderr).toBe(0);
    const token = (JSON.parse(readFileSync(file, 'utf8')) as { token: string }).token;
    // the token is in the file only: never on stdout or stderr
    expect(made.stdout + made.stderr).not.toContain(token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    return (made.doc.grant as { id: string }).id;
  }
  const grantToken = (file: string): string =>
    (JSON.parse(readFileSync(file, 'utf8')) as { token: string }).token;

  beforeAll(async () => {
    users = await startTwoUsers();
    person = home();
    await signIn(person, 'grant-person@example.com');
    // the agent's data folder: the sandbox's address, no session of anyone's
    agent = home();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    for (const c of cleanups) c();
    await users?.close();
  });

  it('50 USDC a day: 30 sent, the next 30 refused by the server after mcp-budget.json is deleted and the tool server restarted; an unlisted address refused; a raw hash refused', async () => {
    const file = join(agent, 'grant.json');
    const id = await createGrant(file, ['--expires', '24h']);
    expect(existsSync(join(agent, 'session.json'))).toBe(false);
    const send = { amount: '30', token: 'USDC', to: users.bobAddress };
    // a local budget too, to show that deleting its record changes nothing at the server
    const args = ['--grant', file, '--max-usd', '100', '--budget-usd', '100'];
    let client = await connect(args);
    const first = await planAndExecute(client, 'plan_send', send);
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    await client.close();
    rmSync(join(agent, 'mcp-budget.json'), { force: true });
    client = await connect(args);
    const before = await usdcOf(person);
    const second = errorOf(await planAndExecute(client, 'plan_send', send));
    expect(second.code).toBe('GRANT_EXCEEDED');
    // the server's own words, as every outside service's, are data for the agent (untrusted)
    expect(second.untrusted?.message).toContain('nothing was signed');
    expect(await usdcOf(person)).toBe(before);
    // the agent reads what the server says is left
    const status = await callTool(client, 'get_status', {});
    expect(status.structuredContent?.grant).toMatchObject({
      id,
      status: 'active',
      daily: [{ symbol: 'USDC', amount: '50', spent: '30', left: '20' }],
    });
    // still no session was read or written in the agent's folder
    expect(existsSync(join(agent, 'session.json'))).toBe(false);

    // an address the grant does not list: the tool server has no list of its own, the server refuses
    const alice = (
      JSON.parse(readFileSync(join(users.aliceHome, 'session.json'), 'utf8')) as {
        session: { address: string };
      }
    ).session.address;
    const unlisted = errorOf(
      await planAndExecute(client, 'plan_send', { amount: '1', token: 'USDC', to: alice }),
    );
    expect(unlisted.code).toBe('GRANT_RECIPIENT_NOT_ALLOWED');
    expect(await usdcOf(person)).toBe(before);

    // the grant token cannot sign a raw hash, nor sign in through the agent
    const raw = await fetch(`${users.urls.serverUrl}/sign/hash`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${grantToken(file)}`,
      },
      body: JSON.stringify({ walletId: 'any', hash: '0x1234' }),
    });
    expect(raw.status).toBe(403);
    expect(((await raw.json()) as { error: { code: string } }).error.code).toBe('GRANT_FORBIDDEN');
    const login = errorOf(await callTool(client, 'login', { email: 'grant-person@example.com' }));
    expect(login.code).toBe('GRANT_FORBIDDEN');

    // the person sees what is left
    const list = await cli(person, ['grant', 'list', '--sandbox', '--json']);
    const listed = (list.doc.grants as Array<{ id: string; daily: Array<{ left: string }> }>).find(
      (g) => g.id === id,
    );
    expect(listed?.daily[0]?.left).toBe('20');
  }, 180_000);

  it('stable codes for bad input, nothing written: a missing flag, a bad duration, no session, a grant file that is not one', async () => {
    const out = join(agent, 'never.json');
    const base = ['grant', 'create', '--daily', '50 USDC', '--out', out, '--sandbox', '--json'];
    // spelled out: the spawned `grant create` (test/spawned-commands.test.ts reads it)
    const noExpiry = await cli(person, [
      'grant',
      'create',
      '--daily',
      '50 USDC',
      '--out',
      out,
      '--sandbox',
      '--json',
    ]);
    expect(noExpiry.doc.error?.code).toBe('USAGE_ERROR');
    const badExpiry = await cli(person, [...base, '--expires', '1 week']);
    expect(badExpiry.doc.error?.code).toBe('USAGE_ERROR');
    const badAmount = await cli(person, [
      ...base.map((a) => (a === '50 USDC' ? '0.0000001 USDC' : a)),
      '--expires',
      '1h',
    ]);
    expect(badAmount.doc.error?.code).toBe('INVALID_AMOUNT');
    // the agent's folder has no session: only the person can make grants
    const noSession = await cli(agent, [...base, '--expires', '1h']);
    expect(noSession.doc.error?.code).toBe('AUTH_REQUIRED');
    expect(noSession.code).toBe(4);
    expect(existsSync(out)).toBe(false);
    // a tool server given a file that is not a grant does not start
    const notGrant = await cli(agent, ['mcp', '--sandbox', '--grant', join(agent, 'sandbox.json')]);
    expect(notGrant.doc.error?.code ?? notGrant.stderr).toContain('CONFIG_ERROR');
  }, 120_000);

  it('a supply and a withdrawal under a grant: the server knows the vToken only by the deploy-address proof the client sends; the approval is charged, the withdrawal moves nothing', async () => {
    const file = join(agent, 'grant-supply.json');
    await createGrant(file, ['--expires', '1h']);
    const client = await connect(['--grant', file]);
    const supplied = await planAndExecute(client, 'plan_supply', { amount: '4', token: 'USDC' });
    expect(supplied.isError, JSON.stringify(supplied.content)).toBeFalsy();
    const withdrawn = await planAndExecute(client, 'plan_withdraw', { amount: '1', token: 'USDC' });
    expect(withdrawn.isError, JSON.stringify(withdrawn.content)).toBeFalsy();
    const status = await callTool(client, 'get_status', {});
    expect(status.structuredContent?.grant).toMatchObject({
      daily: [{ symbol: 'USDC', amount: '50', spent: '4', left: '46' }],
    });
  }, 120_000);

  it('revoke: the next signing is GRANT_REVOKED; an expired grant is GRANT_EXPIRED at the server', async () => {
    const file = join(agent, 'grant-revoke.json');
    const id = await createGrant(file, ['--expires', '1h', '--daily', '10 STRK']);
    const client = await connect(['--grant', file]);
    const small = { amount: '1', token: 'USDC', to: users.bobAddress };
    // gas paid in STRK: the paymaster's fee transfer to its forwarder is allowed (learned from its
    // own build answer) and charged to the grant's STRK
    const ok = await planAndExecute(client, 'plan_send', { ...small, gasToken: 'STRK' });
    expect(ok.isError, JSON.stringify(ok.content)).toBeFalsy();
    const status = await callTool(client, 'get_status', {});
    const daily = (status.structuredContent!.grant as { daily: Array<Record<string, string>> })
      .daily;
    expect(daily.find((d) => d.symbol === 'USDC')?.spent).toBe('1');
    expect(daily.find((d) => d.symbol === 'STRK')?.spent).not.toBe('0');
    const revoked = await cli(person, ['grant', 'revoke', id, '--sandbox', '--json']);
    expect(revoked.code, revoked.stdout + revoked.stderr).toBe(0);
    expect((revoked.doc.grant as { status: string }).status).toBe('revoked');
    // refused as soon as the server is asked (the paymaster build of the plan)
    const after = errorOf(await callTool(client, 'plan_send', small));
    expect(after.code).toBe('GRANT_REVOKED');

    // a grant of 2 s: once the server lists it as expired, its token signs nothing
    const shortFile = join(agent, 'grant-short.json');
    const shortId = await createGrant(shortFile, ['--expires', '2s']);
    await vi.waitFor(
      async () => {
        const list = await cliInProcess(person, ['grant', 'list', '--sandbox', '--json']);
        const g = (list.doc.grants as Array<{ id: string; status: string }>).find(
          (x) => x.id === shortId,
        );
        expect(g?.status).toBe('expired');
      },
      { timeout: 30_000, interval: 500 },
    );
    const expired = await fetch(`${users.urls.serverUrl}/paymaster`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${grantToken(shortFile)}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable' }),
    });
    expect(((await expired.json()) as { error: { data: { code: string } } }).error.data.code).toBe(
      'GRANT_EXPIRED',
    );
  }, 180_000);
});
