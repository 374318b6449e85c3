/**
 * The independent price and the pinned addresses through whole processes (issue 33; docs/checks.md
 * "The oracle's price"): the sandbox's aggregator moved alone (`sandbox price --only aggregator`,
 * a hostile aggregator lowering rate and USD price together) — a swap for a worthless minimum is
 * refused, and the tool server's `--max-usd` and budget count Pragma's value, so nothing leaves
 * past them; the pool's oracle moved alone (a node lying about the pool's prices) — a borrow is
 * refused; a node answering another vToken (a JSON-RPC proxy rewriting `v_token_for_asset`) — the
 * approve is never built; a pool named by address that is not a known one (the proxy answers for it
 * as a node would) — the plan says so and needs the 'unknown-pool' acknowledgment.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectorOf } from '../shared/erc20.js';
import { byteArrayFelts } from '../shared/vesu.js';
import {
  cliInProcess,
  setSandboxPrice,
  startTwoUsers,
  type TwoUsers,
} from './helpers/cli-sandbox.js';
import { errorOf, executeCaps, planAndExecute, toolServerSetup } from './helpers/mcp.js';

const ATTACKER = '0xbad0bad';

describe('an independent price and pinned addresses (sandbox, whole processes)', () => {
  let users: TwoUsers;
  const { aliceThrough, close, connect, freshHome } = toolServerSetup(() => users);
  const alice = (args: string[]) => cliInProcess(users.aliceHome, [...args, '--sandbox', '--json']);
  const price = (token: string, usd: string, only?: string) =>
    setSandboxPrice(users.aliceHome, token, usd, only);

  beforeAll(async () => {
    users = await startTwoUsers();
    // every source agrees to start with
    await price('ETH', '3000');
  }, 120_000);
  afterAll(async () => {
    await close();
    await users?.close();
  });

  it('the aggregator alone says ETH is worth a tenth: a swap for that minimum is refused (SWAP_BELOW_ORACLE); a fifth lower needs high-impact', async () => {
    const moved = await price('ETH', '300', 'aggregator');
    expect(moved).toMatchObject({ only: 'aggregator' });
    const refused = await alice(['trade', '0.1', 'ETH', 'USDC', '--yes']);
    expect(refused.doc.error, refused.stderr).toMatchObject({ code: 'SWAP_BELOW_ORACLE' });
    expect(refused.stderr + JSON.stringify(refused.doc)).toMatch(/Pragma/);

    await price('ETH', '3000');
    await price('ETH', '2400', 'aggregator');
    const asked = await alice(['trade', '0.1', 'ETH', 'USDC', '--yes']);
    expect(asked.doc.error, asked.stderr).toMatchObject({
      code: 'PRICE_IMPACT_TOO_HIGH',
      details: { remedy: ['high-impact'], reason: 'below-oracle' },
    });
    await price('ETH', '3000');
  }, 120_000);

  it('a hostile aggregator cannot lower what the caps count: 1 ETH under --max-usd 50 is refused, the budget is charged nothing; no oracle price: refused where no one can be asked', async () => {
    const home = await freshHome('oracle-caps@example.com');
    await price('ETH', '30', 'aggregator');
    const client = await connect(home, executeCaps('100', users.bobAddress));
    const send = errorOf(
      await planAndExecute(client, 'plan_send', {
        amount: '1',
        token: 'ETH',
        to: users.bobAddress,
      }),
    );
    expect(send.code).toBe('LIMIT_EXCEEDED');
    // valued at Pragma's $3000, not the aggregator's $30
    expect(send.details).toMatchObject({ maxUsd: '50' });
    expect(Number((send.details as { valueUsd: string }).valueUsd)).toBeGreaterThan(2900);
    const spends = (() => {
      try {
        return (
          JSON.parse(readFileSync(join(home, 'mcp-budget.json'), 'utf8')) as { spends: unknown[] }
        ).spends;
      } catch {
        return [];
      }
    })();
    expect(spends).toEqual([]);
    await price('ETH', '3000');

    // Pragma has no ETH price (its pair without entries): a host that cannot ask refuses
    const knob = await fetch(`${users.urls.chainUrl}/sandbox/chain/price`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        token: '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7',
        usd: '3000',
        valid: false,
        only: 'pragma',
      }),
    });
    expect(knob.status).toBe(200);
    const unpriced = errorOf(
      await planAndExecute(client, 'plan_send', {
        amount: '0.001',
        token: 'ETH',
        to: users.bobAddress,
      }),
    );
    expect(unpriced.code).toBe('ORACLE_PRICE_UNAVAILABLE');
    expect(unpriced.details).toMatchObject({ tokens: ['ETH'], reasons: ['no-price'] });
    // a person may accept a swap it cannot check, but --yes alone does not
    const trade = await alice(['trade', '0.01', 'ETH', 'USDC', '--yes']);
    expect(trade.doc.error, trade.stderr).toMatchObject({
      code: 'PRICE_IMPACT_TOO_HIGH',
      details: { remedy: ['high-impact'], reason: 'oracle-unpriced' },
    });
    await price('ETH', '3000');
  }, 180_000);

  it("the pool's oracle alone doubles ETH: a borrow against it is refused (POOL_PRICE_DISAGREES); in agreement it goes through", async () => {
    await price('ETH', '6000', 'vesu');
    const refused = await alice(['borrow', '100', 'USDC', '--collateral', '1 ETH', '--yes']);
    expect(refused.doc.error, refused.stderr).toMatchObject({
      code: 'POOL_PRICE_DISAGREES',
      details: { token: 'ETH', toleranceBps: 200 },
    });
    await price('ETH', '3000');
    const borrowed = await alice(['borrow', '100', 'USDC', '--collateral', '1 ETH', '--yes']);
    expect(borrowed.doc.error, borrowed.stderr).toBeUndefined();
  }, 120_000);

  describe('a node that answers another vToken; a pool named by address that is not a known one', () => {
    let proxy: Server;
    const vTokenSelector = `0x${selectorOf('v_token_for_asset').toString(16)}`;
    const symbolSelector = `0x${selectorOf('symbol').toString(16)}`;
    /**
     * lie: the factory's answers name ATTACKER; alias: UNKNOWN_POOL is answered as Prime; rename:
     * every `symbol()` answer says "vUSDT" (the real vToken, then, is not where the factory would
     * deploy a vToken so named)
     */
    let mode: 'lie' | 'alias' | 'rename' = 'lie';
    const UNKNOWN_POOL = '0x1234';
    const PRIME = '0x451fe483d5921a2919ddd81d0de6696669bccdacd859f72a4fba7656b97c3b5';
    const alias = (request: unknown): void => {
      const r = request as {
        params?: { request?: { calldata?: string[]; contract_address?: string } };
      };
      const call = r.params?.request;
      if (call === undefined) return;
      if (
        call.contract_address !== undefined &&
        BigInt(call.contract_address) === BigInt(UNKNOWN_POOL)
      )
        call.contract_address = PRIME;
      if (call.calldata !== undefined)
        call.calldata = call.calldata.map((f) => (BigInt(f) === BigInt(UNKNOWN_POOL) ? PRIME : f));
    };

    beforeAll(async () => {
      // forwards to the sandbox's node; rewrites every v_token_for_asset answer to ATTACKER
      proxy = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          if (mode === 'alias') {
            const parsed = JSON.parse(body) as unknown;
            for (const r of Array.isArray(parsed) ? parsed : [parsed]) alias(r);
            body = JSON.stringify(parsed);
          }
          void fetch(users.urls.rpcUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          })
            .then(async (answer) => {
              const asked = JSON.parse(body) as unknown;
              let json = (await answer.json()) as unknown;
              const lie = (
                request: { id?: unknown; params?: { request?: { entry_point_selector?: string } } },
                reply: { result?: unknown },
              ) => {
                const selector = request.params?.request?.entry_point_selector;
                if (
                  mode === 'rename' &&
                  selector !== undefined &&
                  BigInt(selector) === BigInt(symbolSelector)
                )
                  reply.result = byteArrayFelts('vUSDT').map((f) => `0x${f.toString(16)}`);
                if (
                  mode === 'lie' &&
                  selector !== undefined &&
                  BigInt(selector) === BigInt(vTokenSelector)
                )
                  reply.result = [ATTACKER];
              };
              if (Array.isArray(asked) && Array.isArray(json))
                for (const r of json as Array<{ id?: unknown; result?: unknown }>)
                  lie((asked as Array<{ id?: unknown }>).find((a) => a.id === r.id) ?? {}, r);
              else if (!Array.isArray(asked)) lie(asked as never, json as { result?: unknown });
              json = JSON.stringify(json);
              res.writeHead(answer.status, { 'content-type': 'application/json' });
              res.end(json as string);
            })
            .catch(() => {
              res.writeHead(502);
              res.end();
            });
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    });

    it('supply: refused before anything is built (PINNED_ADDRESS_MISMATCH); no approve', async () => {
      const home = await freshHome('oracle-pin@example.com');
      const port = (proxy.address() as { port: number }).port;
      const file = join(home, 'sandbox.json');
      const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...doc, rpcUrl: `http://127.0.0.1:${port}/rpc` }));
      const r = await cliInProcess(home, ['supply', '10', 'USDC', '--sandbox', '--json', '--yes']);
      expect(r.doc.error, JSON.stringify(r.doc)).toMatchObject({
        code: 'PINNED_ADDRESS_MISMATCH',
        details: { token: 'USDC' },
      });
      expect(JSON.stringify(r.doc)).not.toMatch(/"approve"/);
      const history = await cliInProcess(home, ['history', '--sandbox', '--json']);
      expect(JSON.stringify(history.doc)).not.toMatch(/supply/i);
    }, 120_000);

    it("supply: a vToken that is not where the pool's factory deploys it is refused (its deploy address checked); no approve", async () => {
      mode = 'rename';
      try {
        // alice's data folder copied (her session too): one sign-in fewer, since the sandbox's
        // server lets 5 a minute from one source, and nothing is signed here
        const port = (proxy.address() as { port: number }).port;
        const home = aliceThrough(`http://127.0.0.1:${port}/rpc`);
        const before = await cliInProcess(home, ['history', '--sandbox', '--json']);
        const r = await cliInProcess(home, [
          'supply',
          '10',
          'USDC',
          '--sandbox',
          '--json',
          '--yes',
        ]);
        expect(r.doc.error, JSON.stringify(r.doc)).toMatchObject({
          code: 'PINNED_ADDRESS_MISMATCH',
          details: { token: 'USDC', reason: 'not-deployed-by-factory' },
        });
        expect(JSON.stringify(r.doc)).not.toMatch(/"approve"/);
        // the history as it was: nothing recorded
        const history = await cliInProcess(home, ['history', '--sandbox', '--json']);
        expect(history.doc).toEqual(before.doc);
      } finally {
        mode = 'lie';
      }
    }, 120_000);

    it("supply to a pool named by address that is not a known one: the plan says so and needs 'unknown-pool'", async () => {
      mode = 'alias';
      const home = await freshHome('oracle-unknown-pool@example.com');
      const port = (proxy.address() as { port: number }).port;
      const file = join(home, 'sandbox.json');
      const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...doc, rpcUrl: `http://127.0.0.1:${port}/rpc` }));
      const args = ['supply', '10', 'USDC', '--pool', UNKNOWN_POOL, '--sandbox', '--json'];
      const refused = await cliInProcess(home, [...args, '--yes']);
      expect(refused.doc.error, JSON.stringify(refused.doc)).toMatchObject({
        code: 'ACKNOWLEDGMENT_REQUIRED',
        details: { remedy: ['unknown-pool'] },
      });
      expect(refused.doc.error?.message).toMatch(/not one of the known Vesu pools/);
      const human = await cliInProcess(home, [
        'supply',
        '10',
        'USDC',
        '--pool',
        UNKNOWN_POOL,
        '--sandbox',
        '--yes',
      ]);
      expect(human.stderr).toMatch(/--accept-unknown-pool/);
      const accepted = await cliInProcess(home, [...args, '--yes', '--accept-unknown-pool']);
      expect(accepted.doc.error, JSON.stringify(accepted.doc)).toBeUndefined();
      mode = 'lie';
    }, 120_000);
  });
});
