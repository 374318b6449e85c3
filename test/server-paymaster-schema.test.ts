/**
 * Issue 27 item 6, over real sockets: our server relaying to the sandbox paymaster (the chain
 * emulator, holding the operator's API key for sponsored gas). A user over the daily sponsored
 * quota gets nothing relayed with the operator's key however the request is spelled: no
 * `fee_mode`, `feeMode`, an unknown key anywhere in `transaction` or `parameters` are refused
 * with VALIDATION_ERROR before the paymaster sees them (its requests are counted), while paying
 * in a token still builds, signs and executes for real.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenService } from '../server/jwt.js';
import { tokenAudience } from '../server/config.js';
import { createPaymasterRelay } from '../server/providers/paymaster.js';
import { DEFAULT_POOLS, resolvePools } from '../sandbox/aggregator/pools.js';
import { buildChainEmulator } from '../sandbox/chain/app.js';
import { resolveToken } from '../shared/tokens.js';
import { buildTestApp, type TestApp, testConfig } from './helpers/build-test-app.js';
import {
  canonical,
  deploymentOf,
  newWallet,
  payIn,
  signTyped,
  sponsored,
  transferCall,
  type Wallet,
} from './helpers/chain-wallet.js';

const OPERATOR_KEY = 'operator-paymaster-key';
const STRK = resolveToken('mainnet', 'STRK');

let emulator: FastifyInstance;
let t: TestApp;
let serverUrl: string;
/** every JSON-RPC method that reached the paymaster */
const upstream: string[] = [];

beforeAll(async () => {
  emulator = await buildChainEmulator({
    pools: resolvePools(DEFAULT_POOLS),
    paymasterApiKey: OPERATOR_KEY,
  });
  emulator.addHook('preHandler', async (request) => {
    if (request.url === '/paymaster')
      upstream.push(String((request.body as { method?: unknown }).method));
  });
  const chainUrl = await emulator.listen({ host: '127.0.0.1', port: 0 });
  const paymaster = createPaymasterRelay({
    url: `${chainUrl}/paymaster`,
    apiKey: OPERATOR_KEY,
    timeoutMs: 5_000,
  });
  t = await buildTestApp({
    config: { paymasterSponsored: true, sponsoredDailyLimit: 1 },
    deps: { paymaster },
  });
  serverUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await t?.close();
  await emulator?.close();
});

/** A session token for `wallet` (a real ArgentX account the emulator can deploy and verify). */
async function tokenFor(wallet: Wallet): Promise<string> {
  const config = testConfig();
  const tokens = createTokenService({ secret: config.jwtSecret, audience: tokenAudience(config) });
  const { token } = await tokens.issue({
    userId: `did:test:${wallet.address}`,
    email: 'quota@example.com',
    walletId: `wallet-${wallet.address}`,
    walletAddress: wallet.address,
  });
  return token;
}

async function relay(
  token: string,
  method: string,
  params: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${serverUrl}/paymaster`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const codeOf = (body: Record<string, unknown>): unknown =>
  (body.error as { data?: { code?: unknown } } | undefined)?.data?.code;

describe('a user over the daily sponsored quota gets nothing relayed with the operator key', () => {
  it('no fee_mode, feeMode, unknown keys in transaction or parameters → VALIDATION_ERROR, nothing relayed', async () => {
    const wallet = newWallet();
    const token = await tokenFor(wallet);
    const deploy = { type: 'deploy', deployment: deploymentOf(wallet) };
    const start = upstream.length;

    // the quota (1 a day): a sponsored deploy, executed for real by the paymaster
    const first = await relay(token, 'paymaster_executeTransaction', {
      transaction: deploy,
      parameters: sponsored,
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.result).toMatchObject({ transaction_hash: expect.stringMatching(/^0x/) });
    const second = await relay(token, 'paymaster_executeTransaction', {
      transaction: deploy,
      parameters: sponsored,
    });
    expect(second.status).toBe(429);
    expect(codeOf(second.body)).toBe('SPONSORED_LIMIT_REACHED');
    expect(upstream.slice(start)).toEqual(['paymaster_executeTransaction']);
    const relayedBefore = upstream.length;

    const fresh = deploymentOf(newWallet());
    const own = { ...deploy, deployment: deploymentOf(wallet) };
    const attacks: Array<[string, unknown, unknown, RegExp]> = [
      ['no fee_mode', own, { version: '0x1' }, /parameters lacks "fee_mode"/],
      [
        'feeMode (another spelling)',
        own,
        { version: '0x1', feeMode: { mode: 'sponsored' } },
        /"feeMode"/,
      ],
      ['no parameters content', own, {}, /parameters lacks/],
      [
        'an unknown key in parameters',
        own,
        { version: '0x1', fee_mode: { mode: 'default', gas_token: STRK.address }, sponsor: 1 },
        /"sponsor"/,
      ],
      [
        'an unknown key in fee_mode',
        own,
        { version: '0x1', fee_mode: { mode: 'default', gas_token: STRK.address, mode2: 's' } },
        /"mode2"/,
      ],
      [
        'an unknown key in transaction',
        { ...own, parameters: sponsored },
        payIn(STRK.address),
        /transaction has a key SNIP-29 does not define: "parameters"/,
      ],
      [
        'an unknown key in deployment',
        { ...own, deployment: { ...own.deployment, fee_mode: { mode: 'sponsored' } } },
        payIn(STRK.address),
        /transaction.deployment has a key/,
      ],
      [
        'an unknown key in invoke',
        {
          type: 'deploy_and_invoke',
          deployment: own.deployment,
          invoke: {
            user_address: canonical(wallet.address),
            calls: [],
            fee_mode: { mode: 'sponsored' },
          },
        },
        payIn(STRK.address),
        /transaction.invoke has a key/,
      ],
    ];
    for (const [name, transaction, parameters, message] of attacks) {
      const answer = await relay(token, 'paymaster_executeTransaction', {
        transaction,
        parameters,
      });
      expect(answer.status, name).toBe(400);
      expect(codeOf(answer.body), name).toBe('VALIDATION_ERROR');
      expect((answer.body.error as { code: number }).code, name).toBe(-32602);
      expect((answer.body.error as { message: string }).message, name).toMatch(message);
    }
    // the same for a build, and for another wallet's deployment (still the ownership check)
    const build = await relay(token, 'paymaster_buildTransaction', {
      transaction: own,
      parameters: { version: '0x1', feeMode: { mode: 'sponsored' } },
    });
    expect(codeOf(build.body)).toBe('VALIDATION_ERROR');
    const other = await relay(token, 'paymaster_executeTransaction', {
      transaction: { type: 'deploy', deployment: fresh },
      parameters: { version: '0x1' },
    });
    expect(codeOf(other.body)).toBe('WALLET_MISMATCH');
    expect(upstream).toHaveLength(relayedBefore);
  });

  it('paying in a token is still built, signed and executed through the relay', async () => {
    const wallet = newWallet();
    const token = await tokenFor(wallet);
    const funded = await fetch(`${emulator.listeningOrigin}/sandbox/chain/fund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: wallet.address }),
    });
    expect(funded.status).toBe(200);
    const transaction = {
      type: 'deploy_and_invoke',
      invoke: {
        user_address: canonical(wallet.address),
        calls: [transferCall(STRK.address, canonical(newWallet().address), 10n ** 15n)],
      },
      deployment: deploymentOf(wallet),
    };
    const built = await relay(token, 'paymaster_buildTransaction', {
      transaction,
      parameters: payIn(STRK.address),
    });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    const result = built.body.result as Record<string, unknown>;
    const executed = await relay(token, 'paymaster_executeTransaction', {
      transaction: {
        type: result.type,
        invoke: {
          user_address: canonical(wallet.address),
          typed_data: result.typed_data,
          signature: signTyped(wallet, result.typed_data),
        },
        deployment: result.deployment,
      },
      parameters: result.parameters,
    });
    expect(executed.status, JSON.stringify(executed.body)).toBe(200);
    expect(executed.body.result).toMatchObject({
      transaction_hash: expect.stringMatching(/^0x/),
    });
  });
});
