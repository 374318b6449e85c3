/**
 * The tool server as an agent meets it: the MCP SDK's own client over stdio to the built bin's
 * `mcp` (process tests only) — spawned (connectMcp) where the process is the subject, or the same
 * built program run in this worker over pipes (connectMcpInProcess) where a tool's result is —
 * its tool results, and the check that outside text reaches the agent clean and only inside
 * `untrusted` objects (docs/commands.md "Tool server for AI agents").
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import {
  Client,
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect } from 'vitest';
import { selectorOf } from '../../shared/erc20.js';
import { findToken } from '../../shared/tokens.js';
import { signIn, type TwoUsers } from './cli-sandbox.js';
import { startInProcess } from './in-process.js';
import { BIN, cleanEnv, tempHome } from './process.js';

/**
 * The flags that let a tool server execute without a person at each step (docs/commands.md "Tool
 * server for AI agents"): the per-plan cap of 50 USD, a 24-hour budget of `budgetUsd`, and the
 * one recipient a send may pay.
 */
export const executeCaps = (budgetUsd: string, recipient: string): string[] => [
  '--allow-execute',
  '--max-usd',
  '50',
  '--budget-usd',
  budgetUsd,
  '--allow-recipient',
  recipient,
];

export type ToolResult = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
};

/** What a person answers when the server asks (an elicitation), given the question. */
export type Elicit = (message: string) => {
  action: 'accept' | 'decline';
  content?: Record<string, string | number | boolean>;
};

/**
 * A person the server can ask: each question is kept in `asked`; the answer is no until
 * `accept` is set, then yes (confirm: true).
 */
export function askedPerson(): { asked: string[]; accept: boolean; elicit: Elicit } {
  const person = {
    asked: [] as string[],
    accept: false,
    elicit: (message: string) => {
      person.asked.push(message);
      return person.accept
        ? { action: 'accept' as const, content: { confirm: true } }
        : { action: 'decline' as const };
    },
  };
  return person;
}

/** A client of the SDK; with `elicit`, a host that can ask the person (else one that cannot). */
function newClient(elicit?: Elicit): Client {
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  if (elicit)
    client.setRequestHandler('elicitation/create', async (request) =>
      elicit(String((request.params as { message?: string }).message ?? '')),
    );
  return client;
}

/**
 * A client connected to `finance-tui mcp …args`, the bin spawned under a clean environment plus
 * `env`: for tests whose subject is the process (its start, stdin, exit). With `elicit`, a host
 * that can ask the person (else one that cannot). Its stderr is read and dropped.
 */
export async function connectMcp(
  args: string[],
  env: Record<string, string | undefined>,
  elicit?: Elicit,
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: cleanEnv(env) as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = newClient(elicit);
  await client.connect(transport);
  return client;
}

/**
 * The client's end of a tool server run in this worker: what the SDK's stdio client does with a
 * child's pipes (one JSON-RPC message a line, read with the SDK's own ReadBuffer), on the
 * program's stdin and stdout. Closing it ends the server's stdin, as the stdio client does, and
 * waits for the program to return.
 */
class PipeClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly buffer = new ReadBuffer();
  private closed = false;
  private readonly toServer: PassThrough;
  private readonly fromServer: PassThrough;
  private readonly exited: Promise<number>;

  constructor(toServer: PassThrough, fromServer: PassThrough, exited: Promise<number>) {
    this.toServer = toServer;
    this.fromServer = fromServer;
    this.exited = exited;
  }

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      try {
        this.buffer.append(chunk);
      } catch (error) {
        // over the SDK's bound for one message: reported as its stdio client reports it
        this.onerror?.(error as Error);
        return;
      }
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    // the program returned on its own (its stdin is still open: a failure): the client hears of it
    void this.exited.then(
      () => this.finish(),
      (error: unknown) => {
        this.onerror?.(error as Error);
        this.finish();
      },
    );
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the in-process tool server has ended');
    this.toServer.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.toServer.end();
    await this.exited.catch(() => undefined);
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/**
 * A client connected to `finance-tui mcp …args` as the built program run in this worker
 * (test/helpers/in-process.ts) under a clean environment plus `env`, its stdin and stdout pipes:
 * the bin's own command, flags, stdio framing and tool server, without a new Node and the
 * bundle's load per server — for tests whose subject is a tool's result (docs/decisions.md "Bin
 * runs in-process where the result is the subject"). `stderr()` is the server's log so far.
 * With `--sandbox`, the sandbox must be running (sandbox.json): one the server started as its
 * child would be stopped when any other in-process run in this worker ends (the child registry
 * is one per worker).
 */
export async function connectMcpInProcess(
  args: string[],
  env: Record<string, string | undefined>,
  elicit?: Elicit,
): Promise<{ client: Client; stderr: () => string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let log = '';
  stderr.setEncoding('utf8').on('data', (chunk: string) => {
    log += chunk;
  });
  const exited = startInProcess(['mcp', ...args], cleanEnv(env), { stdin, stdout, stderr });
  const client = newClient(elicit);
  try {
    await client.connect(new PipeClientTransport(stdin, stdout, exited));
  } catch (error) {
    stdin.end();
    throw new Error(`the in-process tool server did not start: ${String(error)}\n${log}`, {
      cause: error,
    });
  }
  return { client, stderr: () => log };
}

export const callTool = async (
  client: Client,
  name: string,
  args: Record<string, unknown>,
  extra: Parameters<Client['callTool']>[1] = undefined,
): Promise<ToolResult> => (await client.callTool({ name, arguments: args }, extra)) as ToolResult;

/** A progress notification's params, as the server sent them. */
export interface Progress {
  progress: number;
  message?: string;
  _meta?: Record<string, unknown>;
}

interface Tap {
  /** the listener of the next tools/call the client sends */
  next?: (p: Progress) => void;
  /** by request id (= its progress token), until the answer to it passes */
  live: Map<string, (p: Progress) => void>;
}
const taps = new WeakMap<Client, Tap>();

/**
 * Progress read off the wire, in the order the server wrote it. The SDK's client (2.4) hands a
 * notification to `onprogress` a microtask late but settles the call's answer at once, so a
 * notification that arrives in the same read as the answer is dropped as an unknown token
 * (modelcontextprotocol/typescript-sdk#2580): what the server sent is asserted here, not what
 * that race lets through. A notification after the call's answer reaches nobody.
 */
function progressTap(client: Client): Tap {
  const existing = taps.get(client);
  if (existing) return existing;
  const tap: Tap = { live: new Map() };
  taps.set(client, tap);
  const transport = client.transport;
  if (!transport) throw new Error('progressTap: the client is not connected');
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { id?: unknown; method?: unknown };
    if (m.method === 'tools/call' && tap.next && m.id !== undefined) {
      tap.live.set(String(m.id), tap.next);
      tap.next = undefined;
    }
    return send(message, options);
  };
  const inner = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as { id?: unknown; method?: unknown; params?: unknown };
    if (m.method === 'notifications/progress' && typeof m.params === 'object' && m.params) {
      const p = m.params as Progress & { progressToken?: unknown };
      tap.live.get(String(p.progressToken))?.(p);
    } else if (m.method === undefined && m.id !== undefined) tap.live.delete(String(m.id));
    inner?.(message, extra);
  };
  return tap;
}

/**
 * `callTool` with a progress token; every progress notification the server writes for it before
 * its answer reaches `onProgress`, in order (read off the wire: see `progressTap`).
 */
export async function callWithProgress(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onProgress: (p: Progress) => void,
  signal?: AbortSignal,
): Promise<ToolResult> {
  const tap = progressTap(client);
  tap.next = onProgress;
  return callTool(client, name, args, {
    onprogress: () => undefined,
    ...(signal ? { signal } : {}),
  });
}

/** A tool's error as the agent reads it (the result's text). */
interface ToolError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  untrusted?: Record<string, unknown>;
}

/** The error of a result that must be one. */
export const errorOf = (r: ToolResult): ToolError => {
  expect(r.isError, JSON.stringify(r.content)).toBe(true);
  return (JSON.parse(r.content[0]?.text ?? '{}') as { error: ToolError }).error;
};

/** `tool` must plan (a plan id, no error); then execute_plan of that plan, as it answers. */
export async function planAndExecute(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  extra: Parameters<Client['callTool']>[1] = undefined,
): Promise<ToolResult> {
  const planned = await callTool(client, tool, args);
  expect(planned.isError, JSON.stringify(planned.content)).toBeFalsy();
  const { planId } = planned.structuredContent as { planId?: unknown };
  expect(planId, planned.content[0]?.text).toBeTypeOf('string');
  return callTool(client, 'execute_plan', { planId }, extra);
}

/** Every string in `value`, at any depth, with whether it sits inside an `untrusted` object. */
export function strings(
  value: unknown,
  inside = false,
): Array<{ text: string; untrusted: boolean }> {
  if (typeof value === 'string') return [{ text: value, untrusted: inside }];
  if (Array.isArray(value)) return value.flatMap((v) => strings(v, inside));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => strings(v, inside || k === 'untrusted'));
  return [];
}

/**
 * No string in `value` matches `unprintable`; the planted text (strings holding `planted`)
 * appears, and only inside `untrusted` objects.
 */
export function expectCleanAndMarked(
  value: unknown,
  { unprintable, planted }: { unprintable: RegExp; planted: string },
): void {
  const all = strings(value);
  for (const s of all) expect(s.text, s.text).not.toMatch(unprintable);
  const found = all.filter((s) => s.text.includes(planted));
  expect(found.length).toBeGreaterThan(0);
  for (const s of found) expect(s.untrusted, s.text).toBe(true);
}

/** What the tool-server files share on one running sandbox (toolServerSetup). */
export interface ToolServerSetup {
  /** a data folder of its own on the sandbox, signed in as `email` (a funded wallet of its own) */
  freshHome(email: string): Promise<string>;
  /** a data folder signed in as alice (her session copied: no sign-in), its chain reads at `rpcUrl` */
  aliceThrough(rpcUrl: string): string;
  /** `finance-tui mcp --sandbox …args` on `home`, in this worker, closed with the file */
  connect(home: string, args: string[], elicit?: Elicit): Promise<Client>;
  /** the USDC balance of `home`'s wallet in base units, read from the sandbox's node */
  usdcOf(home: string): Promise<bigint>;
  /** every client and data folder made here, closed and removed (the file's afterAll) */
  close(): Promise<void>;
}

/**
 * The set-up the tool-server files (cli-oracle, mcp-guards, receipts-contradict) had each written
 * for itself, once: homes and clients on the sandbox `users()` started, each closed after the
 * file. A sign-in is a bin run and counts against the server's 5 a minute from one source, so a
 * test that signs nothing takes `aliceThrough` instead of `freshHome`.
 */
export function toolServerSetup(users: () => TwoUsers): ToolServerSetup {
  const open: Client[] = [];
  const cleanups: Array<() => void> = [];
  const home = (): string => {
    const made = tempHome();
    cleanups.push(made.cleanup);
    return made.dir;
  };
  return {
    async freshHome(email) {
      const dir = home();
      copyFileSync(join(users().aliceHome, 'sandbox.json'), join(dir, 'sandbox.json'));
      await signIn(dir, email);
      return dir;
    },
    aliceThrough(rpcUrl) {
      const dir = home();
      const { aliceHome } = users();
      const state = JSON.parse(readFileSync(join(aliceHome, 'sandbox.json'), 'utf8')) as object;
      writeFileSync(join(dir, 'sandbox.json'), JSON.stringify({ ...state, rpcUrl }), {
        mode: 0o600,
      });
      copyFileSync(join(aliceHome, 'session.json'), join(dir, 'session.json'));
      return dir;
    },
    async connect(dir, args, elicit) {
      // a tool's result is the subject of these files: the program in this worker
      const { client } = await connectMcpInProcess(
        ['--sandbox', ...args],
        { FINANCE_TUI_HOME: dir },
        elicit,
      );
      open.push(client);
      return client;
    },
    async usdcOf(dir) {
      // read on the chain itself, not through the client under test (a bin run of its own cost
      // ~0.35 s of CPU each, 20 of them across these files): `balance` has its own tests
      const stored = JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8')) as {
        session?: { address?: string };
      };
      const address = stored.session?.address;
      expect(address, `no signed-in wallet in ${dir}`).toBeTypeOf('string');
      const usdc = findToken('mainnet', 'USDC');
      const response = await fetch(users().urls.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'starknet_call',
          params: {
            request: {
              contract_address: usdc?.address,
              entry_point_selector: `0x${selectorOf('balance_of').toString(16)}`,
              calldata: [address],
            },
            block_id: 'latest',
          },
        }),
      });
      const answer = (await response.json()) as { result?: [string, string]; error?: unknown };
      expect(answer.error, JSON.stringify(answer)).toBeUndefined();
      const [low, high] = answer.result ?? [];
      return BigInt(low ?? 'x') + (BigInt(high ?? 'x') << 128n);
    },
    async close() {
      await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}
