/**
 * The tool server (`finance-tui mcp`, issue 18) through the MCP SDK's own client over stdio,
 * against the built bin and a sandbox process: tools and their schemas, quotes, plans, consent,
 * caps, progress, cancellation after submission, and hostile input. The expired plan runs the
 * same server in-process with a fake clock (the only knob the app has for time).
 *
 * Commands and tool servers whose result is the subject run the bin's build in this worker
 * (cliInProcess, connectMcpInProcess: the same command, flags and stdio framing over pipes); the
 * tool list and the hostile lines spawn the bin (its start, its stdin); the sandbox is its own
 * process (docs/decisions.md "Bin runs in-process where the result is the subject").
 */
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_KIND_NAMES, ACTION_KINDS } from '../cli/core/actions/kinds.js';
import { cliInProcess, signIn, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';
import { callWithProgress, connectMcp, connectMcpInProcess, type Elicit } from './helpers/mcp.js';
import { BIN, cleanEnv, tempHome } from './helpers/process.js';

type Result = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
};

const errorOf = (
  r: Result,
): { code: string; message: string; details?: Record<string, unknown> } => {
  expect(r.isError).toBe(true);
  return (JSON.parse(r.content[0]?.text ?? '{}') as { error: { code: string; message: string } })
    .error;
};

/** Execution on a host that cannot ask the person needs a per-plan cap and a budget (issue 26). */
const CAPS = ['--allow-execute', '--max-usd', '1000000', '--budget-usd', '100000000'];

describe('finance-tui mcp over stdio (sandbox)', () => {
  let users: TwoUsers;
  const open: Client[] = [];

  const session = (r: Result): Record<string, unknown> | undefined => r.structuredContent;

  /**
   * `finance-tui mcp --sandbox …args` on `home` (alice's by default): the built program in this
   * worker over pipes, as a tool's result is what these tests check (connectMcpInProcess), or,
   * with `spawned`, the bin as its own process under the SDK's stdio client.
   */
  async function connect(
    args: string[],
    options: { home?: string; elicit?: Elicit; spawned?: boolean } = {},
  ): Promise<{ client: Client; stderr: () => string }> {
    const mcpArgs = ['--sandbox', ...args];
    const env = { FINANCE_TUI_HOME: options.home ?? users.aliceHome };
    const connected = options.spawned
      ? { client: await connectMcp(mcpArgs, env, options.elicit), stderr: () => '' }
      : await connectMcpInProcess(mcpArgs, env, options.elicit);
    open.push(connected.client);
    return connected;
  }

  const call = async (
    client: Client,
    name: string,
    args: Record<string, unknown>,
    extra: Parameters<Client['callTool']>[1] = undefined,
  ): Promise<Result> => (await client.callTool({ name, arguments: args }, extra)) as Result;

  beforeAll(async () => {
    users = await startTwoUsers();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await users?.close();
  });

  it('lists every tool with a title, input and output schemas and truthful annotations; instructions give the flow', async () => {
    // the bin as its own process: the tool server's start and its close on stdin's end
    const { client } = await connect([], { spawned: true });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    // every action kind's plan tool, as the kinds table names it (cli/core/actions/kinds.ts)
    for (const kind of ACTION_KIND_NAMES) expect(names).toContain(ACTION_KINDS[kind].tool);
    expect(names).toEqual(
      [
        'execute_plan',
        'get_balances',
        'get_history',
        'get_portfolio',
        'get_quote',
        'get_session',
        'get_status',
        'get_transaction',
        'login',
        'plan_batch',
        'plan_multi_swap',
        'plan_rebalance',
        'plan_send',
        'plan_trade',
        'verify',
        'get_staking',
        'plan_stake',
        'plan_unstake',
        'plan_unstake_complete',
        'plan_claim_rewards',
        'get_lending',
        'plan_supply',
        'plan_withdraw',
        'plan_borrow',
        'plan_repay',
        'plan_close_position',
        'plan_add_collateral',
        'plan_withdraw_collateral',
      ].sort(),
    );
    // every tool but these reads or plans only
    const acting = new Set(['login', 'verify', 'execute_plan']);
    const readOnly = new Set(names.filter((n) => !acting.has(n)));
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect((tool.description ?? '').length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      const a = tool.annotations ?? {};
      for (const hint of [
        'readOnlyHint',
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
      ] as const)
        expect(typeof a[hint], `${tool.name} ${hint}`).toBe('boolean');
      expect(a.readOnlyHint, tool.name).toBe(readOnly.has(tool.name));
      if (a.readOnlyHint) expect(a.destructiveHint).toBe(false);
    }
    expect(tools.find((t) => t.name === 'execute_plan')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    expect(client.getInstructions()).toMatch(/quote.*plan.*confirm.*execute_plan/s);
    expect(client.getInstructions()).toMatch(/read-only/);
    // every family and every plan tool is named (issue 32 item 6)
    const instructions = client.getInstructions() ?? '';
    for (const word of ['get_staking', 'get_lending', 'stakes', 'borrows', 'batch'])
      expect(instructions).toContain(word);
    for (const kind of ACTION_KIND_NAMES) expect(instructions).toContain(ACTION_KINDS[kind].tool);
  });

  it('get_session and get_quote (single and multi-pair), exact amounts with minimum, fee, impact, route and expiry', async () => {
    const { client } = await connect([]);
    const session = await call(client, 'get_session', {});
    expect(session.structuredContent).toMatchObject({
      signedIn: true,
      email: 'alice@example.com',
      network: 'sandbox',
      sandbox: true,
    });
    const single = await call(client, 'get_quote', {
      pairs: [{ amount: '1', from: 'ETH', to: 'USDC' }],
    });
    expect(single.isError).toBeFalsy();
    const doc = single.structuredContent as {
      mode: string;
      validUntil: string;
      quotedAt: string;
      quotes: Array<Record<string, { baseUnits: string } & Record<string, unknown>>>;
    };
    expect(doc.mode).toBe('single');
    const q = doc.quotes[0] as Record<string, { baseUnits: string }>;
    expect(q.amountIn?.baseUnits).toBe('1000000000000000000');
    const expected = BigInt(q.expectedOutput?.baseUnits ?? '0');
    const minimum = BigInt(q.minimumReceived?.baseUnits ?? '0');
    expect(minimum).toBeGreaterThan(0n);
    expect(minimum).toBeLessThanOrEqual(expected);
    // expected = gross − fee, exactly
    expect(
      BigInt(q.grossOutput?.baseUnits ?? '0') -
        BigInt((q.fee as unknown as { amount: { baseUnits: string } }).amount.baseUnits),
    ).toBe(expected);
    expect(Date.parse(doc.validUntil) - Date.parse(doc.quotedAt)).toBe(30_000);
    const multi = await call(client, 'get_quote', {
      pairs: [
        { amount: '1', from: 'ETH', to: 'USDC' },
        { amount: '10', from: 'STRK', to: 'USDC' },
      ],
    });
    expect((multi.structuredContent as { mode: string; quotes: unknown[] }).quotes).toHaveLength(2);
    expect((multi.structuredContent as { mode: string }).mode).toBe('batch');
  });

  it('sign-in through the tools: login sends the code, verify with the code the person reads saves the session', async () => {
    const carol = tempHome();
    try {
      copyFileSync(join(users.aliceHome, 'sandbox.json'), join(carol.dir, 'sandbox.json'));
      const { client } = await connect([], { home: carol.dir });
      expect(session(await call(client, 'get_session', {}))).toMatchObject({
        signedIn: false,
        code: 'AUTH_REQUIRED',
      });
      // a tool that needs a session says who signs in: the person, through login/verify or a terminal
      const refused = errorOf(await call(client, 'get_balances', {}));
      expect(refused.code).toBe('AUTH_REQUIRED');
      expect(refused.message).toMatch(
        /^not signed in\. The person signs in, not you: .*call login .*or they run `finance-tui login <email> --sandbox` in a terminal themselves/,
      );
      const sent = await call(client, 'login', { email: 'carol@example.com' });
      expect(sent.structuredContent).toMatchObject({
        sent: true,
        email: 'carol@example.com',
        sandbox: true,
      });
      const code = (
        await cliInProcess(carol.dir, ['sandbox', 'outbox', 'carol@example.com', '--json'])
      ).doc.code as string;
      expect(
        errorOf(
          await call(client, 'verify', {
            email: 'carol@example.com',
            code: code === '000000' ? '111111' : '000000',
          }),
        ).code,
      ).toBe('INVALID_OTP');
      const verified = await call(client, 'verify', { email: 'carol@example.com', code });
      expect(verified.isError, JSON.stringify(verified.content)).toBeFalsy();
      expect(verified.structuredContent).toMatchObject({
        email: 'carol@example.com',
        sandbox: true,
      });
      expect(JSON.stringify(verified)).not.toContain(code);
      expect(session(await call(client, 'get_session', {}))).toMatchObject({
        signedIn: true,
        email: 'carol@example.com',
      });
    } finally {
      carol.cleanup();
    }
  });

  it('read-only by default: a plan is made and shown, execute_plan is refused (EXECUTION_DISABLED)', async () => {
    const { client } = await connect([]);
    const planned = await call(client, 'plan_trade', { amount: '0.01', from: 'ETH', to: 'USDC' });
    expect(planned.isError).toBeFalsy();
    const doc = planned.structuredContent as {
      planId: string;
      executable: boolean;
      plan: { kind: string; simulation: { status: string } };
    };
    expect(doc).toMatchObject({
      executable: false,
      plan: { kind: 'trade', simulation: { status: 'ok' } },
    });
    expect(errorOf(await call(client, 'execute_plan', { planId: doc.planId })).code).toBe(
      'EXECUTION_DISABLED',
    );
  });

  it('plan_add_collateral and plan_withdraw_collateral plan through the core; nothing to withdraw is NO_POSITION', async () => {
    const { client } = await connect([]);
    const added = await call(client, 'plan_add_collateral', {
      amount: '0.1',
      collateral: 'ETH',
      debt: 'USDC',
    });
    expect(added.isError, JSON.stringify(added.structuredContent)).toBeFalsy();
    expect(added.structuredContent).toMatchObject({
      executable: false,
      plan: {
        kind: 'add-collateral',
        calls: [{ entrypoint: 'approve' }, { entrypoint: 'modify_position' }],
        simulation: { status: 'ok' },
      },
    });
    expect(
      errorOf(
        await call(client, 'plan_withdraw_collateral', {
          amount: 'all',
          collateral: 'WBTC',
          debt: 'USDC',
        }),
      ).code,
    ).toBe('NO_POSITION');
  });

  it('lending refusals are our own words with details.reason, naming the asset the pool does not list and no flag', async () => {
    const { client } = await connect([]);
    // under the debt floor: the reason an agent acts on sits in details, as docs/commands.md says
    const floor = errorOf(
      await call(client, 'plan_borrow', {
        amount: '5',
        debt: 'USDC',
        collateral: 'ETH',
        collateralAmount: '1',
      }),
    ) as { code: string; message: string; details?: Record<string, unknown>; untrusted?: unknown };
    expect(floor).toMatchObject({ code: 'LENDING_LIMIT', details: { reason: 'debt-floor' } });
    expect(floor.message).toMatch(/floor of \$10/);
    expect(floor.untrusted).toBeUndefined();
    // the debt asset is the unlisted one (ETH is listed): the refusal names DAI
    const unlisted = errorOf(
      await call(client, 'plan_borrow', {
        amount: '100',
        debt: 'DAI',
        collateral: 'ETH',
        collateralAmount: '1',
      }),
    );
    expect(unlisted).toMatchObject({
      code: 'LENDING_LIMIT',
      details: { reason: 'not-listed', token: 'DAI' },
    });
    expect(unlisted.message).toMatch(/DAI is not listed/);
    // no collateral in the position: the remedy names no command-line flag
    const bare = errorOf(
      await call(client, 'plan_borrow', { amount: '100', debt: 'USDC', collateral: 'WBTC' }),
    );
    expect(bare.code).toBe('HEALTH_TOO_LOW');
    expect(bare.message).toMatch(/holds no WBTC collateral/);
    expect(bare.message).not.toMatch(/--/);
    const pool = errorOf(
      await call(client, 'plan_supply', { amount: '10', token: 'USDT', pool: 'Nope' }),
    ) as { code: string; message: string; untrusted?: unknown };
    expect(pool.code).toBe('UNKNOWN_POOL');
    expect(pool.message).toMatch(/no Vesu pool "Nope"/);
    expect(pool.untrusted).toBeUndefined();
    // an empty batch: the agent is told what to give in its own terms, not the command's flags
    const empty = errorOf(await call(client, 'plan_batch', {}));
    expect(empty.code).toBe('USAGE_ERROR');
    expect(empty.message).toMatch(/at least one swap, transfer, supply or stake/);
    expect(empty.message).not.toMatch(/--/);
  });

  it('caps: a borrow counts the debt it takes on — over --max-usd it is LIMIT_EXCEEDED, nothing signed', async () => {
    // collateral first, under a server whose caps it fits
    const { client: roomy } = await connect(CAPS);
    const added = await call(roomy, 'plan_add_collateral', {
      amount: '1000',
      collateral: 'STRK',
      debt: 'USDC',
    });
    // within every cap: executable, no reason given (issue 32 item 6)
    expect(added.structuredContent).toMatchObject({ executable: true });
    expect(added.structuredContent).not.toHaveProperty('notExecutable');
    const addId = (added.structuredContent as { planId: string }).planId;
    const done = await call(roomy, 'execute_plan', { planId: addId });
    expect(done.isError, JSON.stringify(done.content)).toBeFalsy();
    // $500 of STRK at 0.7: borrowing 100 USDC moves nothing out, but owes $100: above a $50 cap
    const { client: capped } = await connect([
      '--allow-execute',
      '--max-usd',
      '50',
      '--budget-usd',
      '100000000',
    ]);
    const planned = await call(capped, 'plan_borrow', {
      amount: '100',
      debt: 'USDC',
      collateral: 'STRK',
    });
    expect(planned.isError, JSON.stringify(planned.content)).toBeFalsy();
    // the plan already says execute_plan would refuse it, with the reason and the cap
    expect(planned.structuredContent).toMatchObject({
      executable: false,
      notExecutable: { code: 'LIMIT_EXCEEDED', details: { valueUsd: '100', maxUsd: '50' } },
    });
    const refused = errorOf(
      await call(capped, 'execute_plan', {
        planId: (planned.structuredContent as { planId: string }).planId,
      }),
    );
    expect(refused).toMatchObject({ code: 'LIMIT_EXCEEDED', details: { valueUsd: '100' } });
    const lending = await call(capped, 'get_lending', {});
    const pair = (
      lending.structuredContent as {
        borrows: Array<{
          collateral: { token: string };
          debt: { token: string; baseUnits: string };
        }>;
      }
    ).borrows.find((b) => b.collateral.token === 'STRK' && b.debt.token === 'USDC');
    expect(pair?.debt.baseUnits).toBe('0');
  });

  it('--allow-execute: plan and execute a trade, progress in order, exact amounts, the chain agrees; never twice', async () => {
    const { client } = await connect(CAPS);
    const planned = await call(client, 'plan_trade', { amount: '0.01', from: 'ETH', to: 'USDC' });
    const { planId, plan } = planned.structuredContent as {
      planId: string;
      plan: { swaps: Array<{ confirmedMinimumReceived: { baseUnits: string } }> };
    };
    const progress: string[] = [];
    const done = await callWithProgress(client, 'execute_plan', { planId }, (p) =>
      progress.push(String(p.message)),
    );
    expect(done.isError, JSON.stringify(done.content)).toBeFalsy();
    const tx = (
      done.structuredContent as {
        result: {
          transaction: {
            hash: string;
            received: Array<{ baseUnits: string; minimum: { baseUnits: string } }>;
          };
        };
      }
    ).result.transaction;
    const minimum = BigInt(plan.swaps[0]?.confirmedMinimumReceived.baseUnits ?? 'x');
    expect(BigInt(tx.received[0]?.minimum.baseUnits ?? '0')).toBe(minimum);
    expect(BigInt(tx.received[0]?.baseUnits ?? '0')).toBeGreaterThanOrEqual(minimum);
    const at = (re: RegExp): number => progress.findIndex((m) => re.test(m));
    expect(at(/^signing/)).toBeGreaterThanOrEqual(0);
    expect(at(/^sent 0x/)).toBeGreaterThan(at(/^signing/));
    expect(at(/^confirmed 0x/)).toBeGreaterThan(at(/^sent 0x/));
    expect(progress[at(/^sent 0x/)]).toContain(tx.hash);
    const read = await call(client, 'get_transaction', { hash: tx.hash });
    expect(read.structuredContent).toMatchObject({ hash: tx.hash, execution: 'SUCCEEDED' });
    const usdc = (
      read.structuredContent as { balanceChanges: Array<{ symbol: string; baseUnits: string }> }
    ).balanceChanges.find((c) => c.symbol === 'USDC');
    expect(usdc?.baseUnits).toBe(tx.received[0]?.baseUnits);
    const again = errorOf(await call(client, 'execute_plan', { planId }));
    expect(again.code).toBe('ALREADY_SUBMITTED');
    const history = await call(client, 'get_history', { limit: 5 });
    const entries = (
      history.structuredContent as { entries: Array<{ hash: string; network: string }> }
    ).entries;
    expect(BigInt(entries[0]?.hash ?? '0')).toBe(BigInt(tx.hash));
    // listed as history --json lists it: a sandbox trade is never labelled mainnet
    expect(entries[0]?.network).toBe('sandbox');
  });

  it('caps: over --max-usd is LIMIT_EXCEEDED, a token outside --allow-token is TOKEN_NOT_ALLOWED; nothing signed', async () => {
    const { client } = await connect([
      '--allow-execute',
      '--max-usd',
      '1',
      '--budget-usd',
      '1000000',
      '--allow-token',
      'ETH',
      '--allow-token',
      'USDC',
    ]);
    const big = await call(client, 'plan_trade', { amount: '0.01', from: 'ETH', to: 'USDC' });
    const cap = errorOf(
      await call(client, 'execute_plan', {
        planId: (big.structuredContent as { planId: string }).planId,
      }),
    );
    expect(cap.code).toBe('LIMIT_EXCEEDED');
    expect(cap.message).toMatch(/\$1\.00|\$1\b/);
    const strk = await call(client, 'plan_trade', { amount: '0.01', from: 'ETH', to: 'STRK' });
    expect(
      errorOf(
        await call(client, 'execute_plan', {
          planId: (strk.structuredContent as { planId: string }).planId,
        }),
      ).code,
    ).toBe('TOKEN_NOT_ALLOWED');
  });

  it('elicitation: the person sees what leaves, the minimum and the fee; a decline signs nothing, an accept signs', async () => {
    const asked: string[] = [];
    let confirm = false;
    const { client } = await connect(['--allow-execute'], {
      elicit: (message) => {
        asked.push(message);
        return confirm ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
      },
    });
    const planned = await call(client, 'plan_trade', { amount: '0.01', from: 'ETH', to: 'USDC' });
    const { planId } = planned.structuredContent as { planId: string };
    const refused = errorOf(await call(client, 'execute_plan', { planId }));
    expect(refused.code).toBe('CONFIRMATION_REQUIRED');
    expect(asked[0]).toMatch(/leaves the wallet: 0\.01 ETH/);
    expect(asked[0]).toMatch(/swap 0\.01 ETH → at least [0-9.]+ USDC\n/);
    expect(asked[0]).toMatch(/service fee [0-9.]+% [0-9.]+ USDC, price impact /);
    // nothing was signed: the same plan can still be confirmed (inside its confirmation window)
    confirm = true;
    const signed = await call(client, 'execute_plan', { planId });
    if (signed.isError) expect(errorOf(signed).code).toBe('CONFIRMATION_REQUIRED'); // the machine was slower than the quote's 30 s
    else
      expect(
        (signed.structuredContent as { result: { transaction: { status: string } } }).result
          .transaction.status,
      ).toBe('SUCCEEDED');
    expect(asked).toHaveLength(2);
  });

  it('get_history describes an entry without a hash (answer lost while sending) and validates', async () => {
    const home = tempHome();
    try {
      // alice's session in a folder of its own (no new sign-in: the file's sign-ins stay as they
      // were), with a history written raw
      for (const file of ['sandbox.json', 'session.json'])
        copyFileSync(join(users.aliceHome, file), join(home.dir, file));
      const account = String(
        (
          JSON.parse(readFileSync(join(home.dir, 'session.json'), 'utf8')) as {
            session: { address: string };
          }
        ).session.address,
      );
      const padded = `0x${BigInt(account).toString(16).padStart(64, '0')}`;
      const base = {
        time: '2026-11-20T10:00:00.000Z',
        updatedAt: '2026-11-20T10:00:00.000Z',
        kind: 'send',
        network: 'mainnet',
        sandbox: true,
        account: padded,
        summary: 'send 0.001 ETH',
        amounts: [],
      };
      const entries = [
        { ...base, id: '00000000000000a1', status: 'not-sent', note: 'its deadline passed' },
        {
          ...base,
          id: '00000000000000a2',
          status: 'succeeded',
          hash: `0x${'ab'.repeat(32)}`,
        },
      ];
      writeFileSync(join(home.dir, 'history.json'), JSON.stringify({ version: 1, entries }), {
        mode: 0o600,
      });
      const { client } = await connect([], { home: home.dir });
      // the SDK client validates structuredContent against the tool's output schema
      const r = await call(client, 'get_history', { limit: 10 });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      const listed = (
        r.structuredContent as { entries: Array<{ hash: string | null; hashNote?: string }> }
      ).entries;
      expect(listed).toHaveLength(2);
      const missing = listed.find((e) => e.hash === null);
      expect(missing?.hashNote).toMatch(/hash not received/);
      expect(listed.find((e) => e.hash !== null)?.hashNote).toBeUndefined();
    } finally {
      home.cleanup();
    }
  }, 120_000);

  it('a cancellation after submission reports the hash; the plan is never sent twice', async () => {
    const { client, stderr } = await connect([...CAPS, '--allow-recipient', users.bobAddress]);
    const planned = await call(client, 'plan_send', {
      amount: '0.001',
      token: 'ETH',
      to: users.bobAddress,
    });
    const { planId } = planned.structuredContent as { planId: string };
    const abort = new AbortController();
    let hash: string | undefined;
    const outcome = await callWithProgress(
      client,
      'execute_plan',
      { planId },
      (p) => {
        const m = /^sent (0x[0-9a-f]{64})/.exec(String(p.message));
        if (m) {
          hash = m[1];
          abort.abort();
        }
      },
      abort.signal,
    ).then(
      () => 'answered',
      () => 'cancelled',
    );
    expect(outcome).toBe('cancelled');
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const again = errorOf(await call(client, 'execute_plan', { planId }));
    expect(again.code).toBe('ALREADY_SUBMITTED');
    expect(again.details?.transactionHash).toBe(hash);
    expect(stderr()).toContain(hash);
  });

  describe('portfolio tools', () => {
    interface PToken {
      symbol: string;
      baseUnits: string;
      value: { cents: string } | null;
      cached: boolean;
    }
    interface PDoc {
      tokens: PToken[];
      total: { cents: string };
      pricing: Record<string, unknown>;
    }
    interface RDoc {
      status: string;
      planId?: string;
      signed?: boolean;
      message?: string;
      plan?: { kind: string; swaps: unknown[]; rebalance: { afterFrom: string } };
      rebalance: { rows: Array<{ symbol: string; now: string; target: string }> };
    }
    const TARGET = '50 ETH, 30 USDC, 20 STRK';
    let home: { dir: string; cleanup: () => void };

    beforeAll(async () => {
      // a faucet wallet of its own (ETH 60 %, USDC 20 %, STRK 20 % of the three), untouched by the other tests
      home = tempHome();
      copyFileSync(join(users.aliceHome, 'sandbox.json'), join(home.dir, 'sandbox.json'));
      await signIn(home.dir, 'mcp-portfolio@example.com');
    }, 120_000);
    afterAll(() => home?.cleanup());

    const portfolioOf = async (client: Client): Promise<PDoc> => {
      const r = await call(client, 'get_portfolio', { fresh: true });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      return r.structuredContent as unknown as PDoc;
    };

    /** Every named token within 2 percentage points of its target share of their total, exactly. */
    function expectWithinBand(p: PDoc, targets: Record<string, number>): void {
      const cents = (s: string) =>
        BigInt(p.tokens.find((t) => t.symbol === s)?.value?.cents ?? '0');
      const total = Object.keys(targets).reduce((sum, s) => sum + cents(s), 0n);
      for (const [s, target] of Object.entries(targets)) {
        const diff = cents(s) * 10_000n - BigInt(target * 100) * total;
        expect((diff < 0n ? -diff : diff) <= 200n * total, `${s}: ${cents(s)} of ${total}`).toBe(
          true,
        );
      }
    }

    it('get_portfolio on a funded wallet is the headless portfolio --json, exact amounts as strings', async () => {
      const { client } = await connect([], { home: home.dir });
      const tool = await portfolioOf(client);
      const headless = await cliInProcess(home.dir, [
        'portfolio',
        '--sandbox',
        '--fresh',
        '--json',
      ]);
      expect(headless.code, headless.stdout).toBe(0);
      const doc = headless.doc as unknown as PDoc & { asOf: string };
      // the same figures; only the moment (asOf, the prices' time) differs
      const { asOf: _a, pricing: toolPricing, ...toolRest } = tool as PDoc & { asOf: string };
      const { asOf: _b, pricing: cliPricing, ...cliRest } = doc;
      expect(toolRest).toEqual(cliRest);
      expect(toolPricing).toMatchObject({ method: cliPricing.method, fromCache: 0 });
      expect(tool.tokens.map((t) => t.symbol).sort()).toEqual(
        ['DAI', 'ETH', 'STRK', 'USDC', 'USDT', 'WBTC'].sort(),
      );
      for (const t of tool.tokens) expect(t.baseUnits).toMatch(/^[0-9]+$/);
      // exact, as the chain holds it (the rebalance test may have run first and moved it)
      const held = await cliInProcess(home.dir, ['balance', 'ETH', '--sandbox', '--json']);
      const [eth] = held.doc.balances as Array<{ symbol: string; baseUnits: string }>;
      expect(eth?.baseUnits).toMatch(/^[1-9][0-9]{15,}$/);
      expect(tool.tokens.find((t) => t.symbol === 'ETH')?.baseUnits).toBe(eth?.baseUnits);
    });

    it('plan_rebalance → execute_plan (--allow-execute) moves the allocation within the band; then "balanced", as the headless command says', async () => {
      const { client } = await connect(CAPS, { home: home.dir });
      const before = await portfolioOf(client);
      const planned = await call(client, 'plan_rebalance', { target: TARGET });
      expect(planned.isError, JSON.stringify(planned.content)).toBeFalsy();
      const doc = planned.structuredContent as unknown as RDoc;
      expect(doc).toMatchObject({ status: 'planned', plan: { kind: 'rebalance' } });
      expect(doc.plan?.rebalance.afterFrom).toBe('simulation');
      expect(doc.rebalance.rows.map((r) => [r.symbol, r.target])).toEqual([
        ['ETH', '50.00'],
        ['USDC', '30.00'],
        ['STRK', '20.00'],
      ]);
      const done = await call(client, 'execute_plan', { planId: doc.planId });
      expect(done.isError, JSON.stringify(done.content)).toBeFalsy();
      expect(
        (done.structuredContent as { result: { transaction: { status: string } } }).result
          .transaction.status,
      ).toBe('SUCCEEDED');
      const after = await portfolioOf(client);
      expectWithinBand(after, { ETH: 50, USDC: 30, STRK: 20 });
      // the tokens the target does not name are kept
      for (const s of ['USDT', 'DAI', 'WBTC'])
        expect(after.tokens.find((t) => t.symbol === s)?.baseUnits).toBe(
          before.tokens.find((t) => t.symbol === s)?.baseUnits,
        );
      const history = async (): Promise<number> =>
        (
          (await call(client, 'get_history', { limit: 100 })).structuredContent as {
            entries: unknown[];
          }
        ).entries.length;
      const count = await history();
      const again = await call(client, 'plan_rebalance', { target: TARGET });
      expect(again.isError, JSON.stringify(again.content)).toBeFalsy();
      const balanced = again.structuredContent as unknown as RDoc;
      expect(balanced).toMatchObject({ status: 'balanced', signed: false });
      expect(balanced.planId).toBeUndefined();
      expect(balanced.message).toMatch(/already balanced/);
      const headless = await cliInProcess(home.dir, [
        'portfolio-rebalance',
        '--target',
        TARGET,
        '--sandbox',
        '--json',
      ]);
      expect(headless.code, headless.stdout).toBe(0);
      expect(headless.doc).toMatchObject({
        status: 'balanced',
        signed: false,
        message: balanced.message,
      });
      expect(await history()).toBe(count);
    });

    it('--max-usd refuses a rebalance worth more (LIMIT_EXCEEDED); nothing is signed', async () => {
      const { client } = await connect(
        ['--allow-execute', '--max-usd', '1', '--budget-usd', '1000000'],
        {
          home: home.dir,
        },
      );
      const before = await portfolioOf(client);
      const planned = await call(client, 'plan_rebalance', { target: '20 ETH, 40 USDC, 40 STRK' });
      const doc = planned.structuredContent as unknown as RDoc;
      expect(doc.status).toBe('planned');
      const refused = errorOf(await call(client, 'execute_plan', { planId: doc.planId }));
      expect(refused.code).toBe('LIMIT_EXCEEDED');
      const after = await portfolioOf(client);
      expect(after.tokens.map((t) => [t.symbol, t.baseUnits])).toEqual(
        before.tokens.map((t) => [t.symbol, t.baseUnits]),
      );
    });

    it('the person asked to confirm a rebalance sees the allocation now, after and targeted; a decline signs nothing', async () => {
      const asked: string[] = [];
      const { client } = await connect(['--allow-execute'], {
        home: home.dir,
        elicit: (message) => {
          asked.push(message);
          return { action: 'decline' };
        },
      });
      const planned = await call(client, 'plan_rebalance', { target: '20 ETH, 40 USDC, 40 STRK' });
      const { planId } = planned.structuredContent as unknown as RDoc;
      expect(errorOf(await call(client, 'execute_plan', { planId })).code).toBe(
        'CONFIRMATION_REQUIRED',
      );
      expect(asked[0]).toMatch(/^Sign this rebalance/);
      expect(asked[0]).toMatch(
        /allocation \(now → after, target\): ETH \d+\.\d\d → \d+\.\d\d % \(20\.00 %\), USDC .* STRK \d+\.\d\d → \d+\.\d\d % \(40\.00 %\)/,
      );
    });

    it('a target not adding up to 100, or a bad band, is an isError result with the code; nothing planned', async () => {
      const { client } = await connect([], { home: home.dir });
      const sum = errorOf(await call(client, 'plan_rebalance', { target: '50 ETH, 30 USDC' }));
      expect(sum).toMatchObject({
        code: 'USAGE_ERROR',
        // the tool server names its own argument, never the command line's flag
        message: 'target: percentages must add up to 100; they add up to 80',
      });
      const band = errorOf(await call(client, 'plan_rebalance', { target: TARGET, band: 'wide' }));
      expect(band).toMatchObject({
        code: 'USAGE_ERROR',
        message: expect.stringMatching(/^band: must be a percentage/),
      });
      expect(
        errorOf(await call(client, 'plan_rebalance', { target: '50 ETH, 50 NOPE' })).code,
      ).toBe('UNKNOWN_TOKEN');
    });
  });

  it('invalid input is an isError result: a schema failure, and a domain failure with our code', async () => {
    const { client } = await connect([]);
    const bad = await call(client, 'get_quote', { pairs: [] });
    expect(bad.isError).toBe(true);
    expect(
      errorOf(
        await call(client, 'get_quote', { pairs: [{ amount: '1e5', from: 'ETH', to: 'USDC' }] }),
      ).code,
    ).toBe('INVALID_AMOUNT');
    expect(
      errorOf(await call(client, 'plan_send', { amount: '1', token: 'ETH', to: '0x0' })).code,
    ).toMatch(/INVALID_RECIPIENT|INVALID_ADDRESS/);
    expect(
      errorOf(
        await call(client, 'get_quote', { pairs: [{ amount: '1', from: 'NOPE', to: 'USDC' }] }),
      ).code,
    ).toBe('UNKNOWN_TOKEN');
    expect(
      errorOf(
        await call(client, 'execute_plan', { planId: '00000000-0000-4000-8000-000000000000' }),
      ).code,
    ).toBe('EXECUTION_DISABLED');
  });

  it('a malformed JSON-RPC line, an unknown tool and a huge argument do not stop it', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--sandbox'], {
      env: cleanEnv({ FINANCE_TUI_HOME: users.aliceHome }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stderr.resume();
    let out = '';
    const answers = new Map<number, Record<string, unknown>>();
    const waiting = new Map<number, () => void>();
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      let i = out.indexOf('\n');
      while (i >= 0) {
        const line = out.slice(0, i);
        out = out.slice(i + 1);
        const msg = JSON.parse(line) as { id?: number };
        if (typeof msg.id === 'number') {
          answers.set(msg.id, msg);
          waiting.get(msg.id)?.();
        }
        i = out.indexOf('\n');
      }
    });
    const answer = (id: number): Promise<Record<string, unknown>> =>
      answers.has(id)
        ? Promise.resolve(answers.get(id) as Record<string, unknown>)
        : new Promise((resolve) =>
            waiting.set(id, () => resolve(answers.get(id) as Record<string, unknown>)),
          );
    const send = (msg: unknown): void => {
      child.stdin.write(`${JSON.stringify(msg)}\n`);
    };
    try {
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      await answer(1);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      child.stdin.write('{"jsonrpc": "2.0", "id": 2, "method": \n');
      child.stdin.write('not json at all\n');
      // each answered with -32700 and id null (test/mcp-guards.test.ts reads those answers)
      send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'no_such_tool', arguments: {} },
      });
      const unknown = await answer(3);
      expect(JSON.stringify(unknown)).toMatch(/no_such_tool/);
      // over the line bound: dropped whole (answered with id null, naming the limit)
      send({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: {
          name: 'get_quote',
          arguments: { pairs: [{ amount: '1'.repeat(3_000_000), from: 'ETH', to: 'USDC' }] },
        },
      });
      // under the bound but over the schema's: refused as invalid input
      send({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: {
          name: 'get_quote',
          arguments: { pairs: [{ amount: '1'.repeat(500_000), from: 'ETH', to: 'USDC' }] },
        },
      });
      const huge = (await answer(5)) as { result?: { isError?: boolean } };
      expect(huge.result?.isError).toBe(true);
      send({ jsonrpc: '2.0', id: 6, method: 'tools/list' });
      const list = (await answer(6)) as { result?: { tools?: unknown[] } };
      expect(list.result?.tools?.length).toBe(28);
      expect(answers.has(4)).toBe(false);
      expect(child.exitCode).toBeNull();
    } finally {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  it('an expired plan is refused without a confirmation through the host (in-process, fake clock)', async () => {
    const [{ createToolServer }, { resolveEndpoints }, { openBudget }] = await Promise.all([
      import('../cli/mcp/server.js'),
      import('../cli/core/endpoints.js'),
      import('../cli/core/budget.js'),
    ]);
    const endpoints = await resolveEndpoints(cleanEnv({ FINANCE_TUI_HOME: users.aliceHome }), {
      sandbox: true,
    });
    let offset = 0;
    const server = createToolServer({
      endpoints,
      allowExecute: true,
      // no person in the loop: caps (issue 26)
      limits: {
        maxUsdCents: 100_000_000n,
        allowRecipients: [users.bobAddress],
        budget: openBudget(endpoints.dataDir, { limitCents: 10_000_000_000n, chain: 'in-process' }),
      },
      capsText: '',
      log: () => undefined,
      now: () => Date.now() + offset,
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(a);
    try {
      const planned = await call(client, 'plan_send', {
        amount: '0.001',
        token: 'ETH',
        to: users.bobAddress,
      });
      const { planId } = planned.structuredContent as { planId: string };
      offset = 31_000;
      const refused = errorOf(await call(client, 'execute_plan', { planId }));
      expect(refused.code).toBe('CONFIRMATION_REQUIRED');
      expect(refused.message).toMatch(/older than 30 s.*plan_send again/);
    } finally {
      await client.close();
      await endpoints.release();
    }
  });
});
