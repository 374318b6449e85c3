/**
 * The swap rules a quote (and a price) is held to before any request: they live in the core
 * (actions/rules.ts, actions/limits.ts), not in the aggregator client, so these run the core
 * against the real emulator on a loopback socket and count what reached it.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildAggregatorEmulator } from '../../sandbox/aggregator/app.js';
import type { Network } from '../../shared/tokens.js';
import { resolveToken } from '../../shared/tokens.js';
import { failure } from '../../test/helpers/failure.js';
import { createAggregatorClient } from '../clients/aggregator.js';
import { quote, type QuoteRequest } from './quote.js';

let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  app = await buildAggregatorEmulator();
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
});
afterEach(() => {
  app.faults.requests = 0;
});

const client = (network: Network) =>
  createAggregatorClient({ baseUrl, network, retries: 0, timeoutMs: 2000 });

function quoteOn(network: Network, request: QuoteRequest) {
  return quote(request, {
    client: client(network),
    network,
    networkName: network,
    sandbox: false,
    defaultSlippageBps: 100,
  });
}

const one = (amount: string, from: string, to: string): QuoteRequest => ({
  pairs: [{ amount, from, to }],
  multi: false,
});
const many = (n: number): QuoteRequest => ({
  pairs: Array.from({ length: n }, () => ({ amount: '10', from: 'USDC', to: 'ETH' })),
  multi: true,
});

describe('quote: the swap rules, before any request', () => {
  it('answers on mainnet with one request', async () => {
    const result = await quoteOn('mainnet', one('100', 'USDC', 'ETH'));
    expect(result.mode).toBe('single');
    expect(result.quotes).toHaveLength(1);
    expect(app.faults.requests).toBe(1);
  });

  it.each([
    ['a single quote', one('1', 'ETH', 'USDC')],
    ['a multi-swap quote', many(2)],
  ])('%s on sepolia is NETWORK_UNSUPPORTED', async (_, request) => {
    expect((await failure(quoteOn('sepolia', request))).code).toBe('NETWORK_UNSUPPORTED');
    expect(app.faults.requests).toBe(0);
  });

  it('a multi-swap of 4 pairs is BATCH_LIMIT_EXCEEDED, of 1 a usage error', async () => {
    expect((await failure(quoteOn('mainnet', many(4)))).code).toBe('BATCH_LIMIT_EXCEEDED');
    expect((await failure(quoteOn('mainnet', many(1)))).code).toBe('USAGE_ERROR');
    expect(app.faults.requests).toBe(0);
  });

  it.each([
    ['the same token on both sides', one('1', 'ETH', 'eth'), 'USAGE_ERROR'],
    [
      'the same token by address',
      one('1', 'ETH', resolveToken('mainnet', 'ETH').address.toUpperCase().replace('0X', '0x')),
      'USAGE_ERROR',
    ],
    ['a zero amount', one('0', 'USDC', 'ETH'), 'INVALID_AMOUNT'],
    ['a zero amount written long', one('0.000', 'USDC', 'ETH'), 'INVALID_AMOUNT'],
    ['more decimals than the token has', one('1.0000001', 'USDC', 'ETH'), 'INVALID_AMOUNT'],
    ['an unknown token', one('1', 'USDC', 'DOGE'), 'UNKNOWN_TOKEN'],
  ])('%s is refused', async (_, request, code) => {
    expect((await failure(quoteOn('mainnet', request))).code).toBe(code);
    expect(app.faults.requests).toBe(0);
  });
});
