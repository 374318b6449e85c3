/**
 * The sandbox stack in this process (startSandbox, in memory, port 0) and a signed-in session on
 * it: login → code from the outbox → verify, then an execution account whose signer posts to
 * /sign/hash with plain fetch (the client's own HTTP layer is the core's; this is a stand-in).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  createExecutionAccount,
  type ExecutionAccount,
  type ExecutionAccountOptions,
  type SignHash,
} from '../../cli/core/chain/index.js';
import { writeSandboxState } from '../../cli/platform/sandbox-state.js';
import { SELECTOR } from '../../shared/erc20.js';
import { splitSignature } from '../../shared/starknet.js';
import { ROUTER_ADDRESS } from '../../shared/swap-calldata.js';
import { type SandboxHandle, startSandbox } from '../../sandbox/launcher.js';
import { cleanEnv, tempHome } from './home.js';

export interface Session {
  email: string;
  token: string;
  walletId: string;
  walletAddress: string;
  walletPublicKey: string;
}

export interface SandboxStack {
  handle: SandboxHandle;
  signIn(email: string): Promise<Session>;
  /** an execution account for `session`, polling every 10 ms */
  account(session: Session, overrides?: Partial<ExecutionAccountOptions>): ExecutionAccount;
  signHash(session: Session): SignHash;
  /** POST to a sandbox-only knob of the chain emulator */
  knob(path: string, body: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export async function postJson(
  url: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function startSandboxStack(): Promise<SandboxStack> {
  const dir = mkdtempSync(join(tmpdir(), 'finance-tui-chain-'));
  const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const handle = await startSandbox({ port: 0, dataDir: dir, logStream: sink, inMemory: true });
  const { serverUrl, identityUrl, rpcUrl, chainUrl } = handle.info;

  const signHash =
    (session: Session): SignHash =>
    async (hash, signal) => {
      const response = await fetch(`${serverUrl}/sign/hash`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
        body: JSON.stringify({ walletId: session.walletId, hash }),
        signal,
      });
      const body = (await response.json()) as { signature: string };
      const [r, s] = splitSignature(body.signature);
      return { r, s };
    };

  return {
    handle,
    signHash,
    async signIn(email) {
      const login = await postJson(`${serverUrl}/auth/login`, { email });
      if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
      const outbox = (await (
        await fetch(`${identityUrl}/sandbox/outbox/${encodeURIComponent(email)}`)
      ).json()) as { code: string };
      const verify = await postJson(`${serverUrl}/auth/verify`, { email, code: outbox.code });
      if (verify.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verify.body)}`);
      return { email, ...(verify.body as Omit<Session, 'email'>) };
    },
    account(session, overrides = {}) {
      return createExecutionAccount({
        address: session.walletAddress,
        publicKey: session.walletPublicKey,
        rpcUrl,
        paymasterUrl: `${serverUrl}/paymaster`,
        headers: { authorization: `Bearer ${session.token}` },
        signHash: signHash(session),
        pollIntervalMs: 10,
        ...overrides,
      });
    },
    async knob(path, body) {
      const response = await postJson(`${chainUrl}${path}`, body);
      if (response.status !== 200)
        throw new Error(`knob ${path} failed: ${JSON.stringify(response.body)}`);
      return response.body;
    },
    async close() {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A data folder whose sandbox.json names this process's `stack`, as `finance-tui sandbox` writes
 * it: the built bin run with FINANCE_TUI_HOME = `dir` finds the stack as any `--sandbox` command
 * finds a running sandbox.
 */
export function homeNamingSandbox(stack: SandboxStack): { dir: string; cleanup: () => void } {
  const home = tempHome();
  const { serverUrl, identityUrl, aggregatorUrl, rpcUrl, paymasterUrl, chainInstance } =
    stack.handle.info;
  writeSandboxState(cleanEnv({ FINANCE_TUI_HOME: home.dir }), {
    serverUrl,
    identityUrl,
    aggregatorUrl,
    rpcUrl,
    paymasterUrl,
    chainInstance,
    pid: process.pid,
  });
  return home;
}

/** The router's ERC-20 allowance from `owner` on `token`, read with a plain starknet_call. */
export async function routerAllowance(
  rpcUrl: string,
  owner: string,
  token: string,
): Promise<bigint> {
  const reply = await postJson(rpcUrl, {
    jsonrpc: '2.0',
    id: 1,
    method: 'starknet_call',
    params: {
      request: {
        contract_address: token,
        entry_point_selector: `0x${SELECTOR.allowance.toString(16)}`,
        calldata: [owner, ROUTER_ADDRESS],
      },
      block_id: 'latest',
    },
  });
  const [low, high] = reply.body.result as [string, string];
  return BigInt(low) + (BigInt(high) << 128n);
}
