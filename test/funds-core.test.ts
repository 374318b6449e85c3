/**
 * The `send` action of the pipeline (cli/core/actions) in process, against the sandbox stack on
 * loopback, seen through a relay that can refuse sponsored gas the way a paymaster without an
 * operator key does: the plan falls back to paying gas in the gas token. Also: a build past its
 * deadline is built again (never signed stale), a plan is signed once, a transfer that leaves no
 * room for its fee is refused, a cancelled plan stops.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, readOutbox, verify } from '../cli/core/account.js';
import { type ActionOptions, executeAction, planAction } from '../cli/core/actions/index.js';
import type { ProgressEvent } from '../cli/core/call.js';
import { type Endpoints, resolveEndpoints } from '../cli/core/endpoints.js';
import { balances } from '../cli/core/funds.js';
import { type SandboxHandle, startSandbox } from '../sandbox/launcher.js';
import { writeFileAtomic } from '../shared/fs.js';
import { failure } from './helpers/failure.js';
import { cleanEnv, tempHome } from './helpers/process.js';

const devNull = new Writable({ write: (_chunk, _encoding, callback) => callback() });
const BOB = `0x${'b0b'.repeat(20)}`;

async function body(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const planSend = (
  endpoints: Endpoints,
  request: { amount: string; token: string; to: string } & Omit<ActionOptions, 'now'>,
  call = {},
) =>
  planAction(
    endpoints,
    { kind: 'send', transfer: { amount: request.amount, token: request.token, to: request.to } },
    request,
    call,
  );

describe('the send action', () => {
  const home = tempHome();
  const env = cleanEnv({ FINANCE_TUI_HOME: home.dir });
  let sandbox: SandboxHandle;
  let relay: Server;
  /** how the relay answers a sponsored build: pass it on, or refuse it as a paymaster / as our server does */
  let refuseSponsored: false | 'paymaster' | 'server' = false;
  let sponsoredAsked = 0;
  let endpoints: Endpoints;

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      dataDir: home.dir,
      inMemory: true,
      logStream: devNull,
    });
    // Forwards everything to our server, except — when told — a sponsored paymaster build,
    // refused as a paymaster without an operator key refuses it.
    relay = createServer((request, response) => {
      void body(request).then(async (raw) => {
        const text = raw.toString('utf8');
        if (request.url === '/paymaster' && text.includes('"sponsored"')) {
          sponsoredAsked += 1;
          if (refuseSponsored !== false) {
            const id = (JSON.parse(text) as { id?: unknown }).id ?? null;
            const error =
              refuseSponsored === 'paymaster'
                ? {
                    code: 163,
                    message: 'UNKNOWN_ERROR',
                    data: 'sponsored transactions need an api key',
                  }
                : {
                    code: -32006,
                    message: 'SPONSORED_DISABLED: Sponsored gas is off on this server',
                    data: { code: 'SPONSORED_DISABLED', requestId: 'r1' },
                  };
            response.writeHead(refuseSponsored === 'paymaster' ? 200 : 403, {
              'content-type': 'application/json',
            });
            response.end(JSON.stringify({ jsonrpc: '2.0', id, error }));
            return;
          }
        }
        const headers: Record<string, string> = {};
        for (const [key, value] of Object.entries(request.headers))
          if (typeof value === 'string' && key !== 'host' && key !== 'content-length')
            headers[key] = value;
        const upstream = await fetch(`${sandbox.info.serverUrl}${request.url ?? '/'}`, {
          method: request.method ?? 'GET',
          headers,
          ...(raw.length > 0 ? { body: raw } : {}),
        });
        response.writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'application/json',
        });
        response.end(Buffer.from(await upstream.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
    writeFileAtomic(
      `${home.dir}/sandbox.json`,
      JSON.stringify({ ...sandbox.info, serverUrl: relayUrl }),
    );
    endpoints = await resolveEndpoints(env, { sandbox: true, runningSandboxOnly: true });
    await login(endpoints, 'carol@example.com');
    await verify(
      endpoints,
      'carol@example.com',
      (await readOutbox(endpoints, 'carol@example.com')).code,
    );
  });
  afterAll(async () => {
    relay.closeAllConnections();
    await new Promise((resolve) => relay.close(resolve));
    await sandbox.close();
    home.cleanup();
  });

  it.each(['server', 'paymaster'] as const)(
    'no sponsored gas on offer (refused by the %s): the plan pays gas in the gas token, and says so',
    async (by) => {
      refuseSponsored = by;
      const asked = sponsoredAsked;
      const progress: ProgressEvent[] = [];
      const planned = await planSend(
        endpoints,
        { amount: '2', token: 'USDC', to: BOB },
        { onProgress: (p: ProgressEvent) => progress.push(p) },
      );
      expect(sponsoredAsked).toBe(asked + 1);
      expect(planned.document.gas).toMatchObject({ mode: 'default', maxFee: { symbol: 'STRK' } });
      expect(progress).toContainEqual({ kind: 'fee-mode', gasToken: 'STRK' });
      const sent = await executeAction(planned);
      expect(sent.transaction.feePaid?.symbol).toBe('STRK');
      expect(sent.transaction.balanceChanges.find((b) => b.symbol === 'USDC')?.baseUnits).toBe(
        '-2000000',
      );
    },
  );

  it('a build past its deadline is built again before signing (same calls, fee no higher than confirmed); signed once', async () => {
    refuseSponsored = false;
    const planned = await planSend(endpoints, { amount: '1', token: 'STRK', to: BOB });
    const signed = planned.context.account.signer.signatures;
    const later = {
      ...planned,
      context: { ...planned.context, now: () => planned.prepared.expiresAt * 1000 + 1_000 },
    };
    const steps: string[] = [];
    const sent = await executeAction(later, { onProgress: (p) => steps.push(p.kind) });
    expect(steps.slice(0, 3)).toEqual(['checking-account', 'building', 'simulating']);
    expect(sent.sends[0]).toMatchObject({
      to: `0x${BOB.slice(2).padStart(64, '0')}`,
      amount: { baseUnits: '1000000000000000000' },
    });
    expect(planned.context.account.signer.signatures).toBe(signed + 1);
    // the same plan again: never signed twice
    expect((await failure(executeAction(planned))).code).toBe('ALREADY_SUBMITTED');
    expect(planned.context.account.signer.signatures).toBe(signed + 1);
  });

  it.each(['server', 'paymaster'] as const)(
    'a plan confirmed with sponsored gas, built again when sponsorship is refused (by the %s): PLAN_CHANGED with a plan that pays the gas, nothing signed',
    async (by) => {
      refuseSponsored = false;
      const planned = await planSend(endpoints, { amount: '1', token: 'STRK', to: BOB });
      expect(planned.document.gas).toEqual({ mode: 'sponsored' });
      const signed = planned.context.account.signer.signatures;
      const before = await balances(endpoints, { tokens: ['STRK'] });
      // past the build's deadline: built again before signing, and sponsorship is refused now
      const later = {
        ...planned,
        context: { ...planned.context, now: () => planned.prepared.expiresAt * 1000 + 1_000 },
      };
      refuseSponsored = by;
      try {
        const error = await failure(executeAction(later));
        expect(error.code).toBe('PLAN_CHANGED');
        const details = error.details as {
          changes: string[];
          plan: { gas: { mode: string; maxFee?: { symbol: string } } };
        };
        expect(details.changes).toEqual([
          expect.stringMatching(
            /^the gas is no longer sponsored: the plan made again pays at most [0-9.]+ STRK for it$/,
          ),
        ]);
        expect(details.plan.gas).toMatchObject({ mode: 'default', maxFee: { symbol: 'STRK' } });
        expect(planned.context.account.signer.signatures).toBe(signed);
        expect(await balances(endpoints, { tokens: ['STRK'] })).toEqual(before);
      } finally {
        refuseSponsored = false;
      }
    },
  );

  it('the whole balance of the gas token, paying gas in it: INSUFFICIENT_BALANCE (no room for the fee)', async () => {
    const [strk] = (await balances(endpoints, { tokens: ['STRK'] })).balances;
    const error = await failure(
      planSend(endpoints, {
        amount: strk?.amount ?? '0',
        token: 'STRK',
        to: BOB,
        gasToken: 'STRK',
      }),
    );
    expect(error.code).toBe('INSUFFICIENT_BALANCE');
    // the paymaster's build simulates the fee transfer and refuses it: no quote, so no figure
    expect(error.message).toMatch(/plus the gas, paid in STRK.*no room for the gas/);
  });

  it("a maximum fee below the paymaster's: FEE_ABOVE_MAX, nothing signed", async () => {
    const error = await failure(
      planSend(endpoints, {
        amount: '1',
        token: 'STRK',
        to: BOB,
        gasToken: 'STRK',
        maxFee: '0.000000001',
      }),
    );
    expect(error.code).toBe('FEE_ABOVE_MAX');
  });

  it('an aborted call is CANCELLED', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      (
        await failure(
          planSend(
            endpoints,
            { amount: '1', token: 'STRK', to: BOB },
            { signal: controller.signal },
          ),
        )
      ).code,
    ).toBe('CANCELLED');
  });
});
