/**
 * The account's facts (cli/core/chain/facts.ts) against a real socket: the five reads leave as
 * one JSON-RPC batch and each answer is checked; a node that refuses batches is asked one request
 * each; an undeployed account, an account without SNIP-9 and garbled answers keep their meaning.
 */
import { constants, hash } from 'starknet';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { createChainReader, type ExecutionAccount } from './account.js';
import { mapChainError } from './errors.js';
import { takeAccountFacts } from './facts.js';
import { inScope } from './scope.js';
import { startJsonServer } from '../../../test/helpers/json-server.js';

interface Request {
  id: unknown;
  method: string;
  params: Record<string, unknown>;
}

const CHAIN_ID = constants.StarknetChainId.SN_MAIN;
let close: () => Promise<void>;
let url: string;
/** each POST body received: an array for a batch, an object for a single request */
let bodies: unknown[];
let refuseBatches: boolean;
/** what the node answers per method (a JSON-RPC `result`, or an `error`) */
let node: {
  classHash: { result: unknown } | { error: { code: number; message: string } };
  chainId: unknown;
  nonce: unknown;
  /** the SRC-5 interfaces the account supports */
  interfaces: string[];
};

const answer = (r: Request): Record<string, unknown> => {
  const reply = (value: { result: unknown } | { error: unknown }) => ({
    jsonrpc: '2.0',
    id: r.id,
    ...value,
  });
  switch (r.method) {
    case 'starknet_getClassHashAt':
      return reply(node.classHash);
    case 'starknet_chainId':
      return reply({ result: node.chainId });
    case 'starknet_getNonce':
      return 'error' in node.classHash ? reply(node.classHash) : reply({ result: node.nonce });
    case 'starknet_call': {
      const request = r.params.request as { entry_point_selector: string; calldata: string[] };
      if (
        BigInt(request.entry_point_selector) !==
        BigInt(hash.getSelectorFromName('supports_interface'))
      )
        return reply({ error: { code: 21, message: 'Invalid message selector' } });
      if ('error' in node.classHash) return reply(node.classHash);
      const id = BigInt(request.calldata[0] ?? '0x0');
      return reply({ result: [node.interfaces.some((i) => BigInt(i) === id) ? '0x1' : '0x0'] });
    }
    default:
      return reply({ error: { code: -32601, message: 'Method not found' } });
  }
};

beforeAll(async () => {
  const started = await startJsonServer((body, { json }) => {
    bodies.push(body);
    if (Array.isArray(body))
      return refuseBatches
        ? json(400, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'no batch' } })
        : json(200, (body as Request[]).map(answer).reverse());
    return json(200, answer(body as Request));
  });
  url = `${started.url}/rpc`;
  close = started.close;
});
afterAll(() => close());
/** a deployed SNIP-9 v2 account with nonce 42 */
const deployedAccount = (): typeof node => ({
  classHash: { result: `0x${'3'.repeat(62)}` },
  chainId: CHAIN_ID,
  nonce: '0x2a',
  interfaces: [constants.SNIP9_V2_INTERFACE_ID],
});
beforeEach(() => {
  bodies = [];
  refuseBatches = false;
  node = deployedAccount();
});

/** readFacts only reads the reader's part of an execution account */
const account = (): ExecutionAccount =>
  createChainReader({
    address: `0x0${'1'.repeat(63)}`,
    rpcUrl: url,
    requestTimeoutMs: 5_000,
  }) as ExecutionAccount;
const facts = (ea = account()) => inScope(undefined, () => takeAccountFacts(ea), mapChainError);
const methodsOf = (body: unknown): string[] =>
  (Array.isArray(body) ? (body as Request[]) : [body as Request]).map((r) => r.method);

describe("the account's facts", () => {
  it('are read as one JSON-RPC batch of five, and the chain id is kept for the provider', async () => {
    const ea = account();
    await expect(facts(ea)).resolves.toEqual({ deployed: true, chainId: CHAIN_ID, nonce: 42n });
    expect(bodies).toHaveLength(1);
    expect(methodsOf(bodies[0])).toEqual([
      'starknet_getClassHashAt',
      'starknet_chainId',
      'starknet_getNonce',
      'starknet_call',
      'starknet_call',
    ]);
    // starknet.js asks the chain id once per provider: not again after the facts
    await expect(ea.provider.getChainId()).resolves.toBe(CHAIN_ID);
    expect(bodies).toHaveLength(1);
    // SNIP-9 v1 alone is enough, as for starknet.js's getSnip9Version
    node.interfaces = [constants.SNIP9_V1_INTERFACE_ID];
    await expect(facts()).resolves.toMatchObject({ deployed: true, nonce: 42n });
  });

  it('a node that refuses batches is asked one request each, with the same answers', async () => {
    refuseBatches = true;
    await expect(facts()).resolves.toEqual({ deployed: true, chainId: CHAIN_ID, nonce: 42n });
    expect(bodies.map((b) => Array.isArray(b))).toEqual([true, false, false, false, false, false]);
    expect(bodies.slice(1).flatMap(methodsOf).sort()).toEqual(
      [
        'starknet_call',
        'starknet_call',
        'starknet_chainId',
        'starknet_getClassHashAt',
        'starknet_getNonce',
      ].sort(),
    );
  });

  it('an account not on the chain (CONTRACT_NOT_FOUND) is undeployed, its failed nonce unused', async () => {
    node.classHash = { error: { code: 20, message: 'Contract not found' } };
    for (const refuse of [false, true]) {
      refuseBatches = refuse;
      await expect(facts()).resolves.toEqual({
        deployed: false,
        chainId: CHAIN_ID,
        nonce: undefined,
      });
    }
  });

  it('a deployed account without SNIP-9 v1 or v2 is ACCOUNT_UNSUPPORTED', async () => {
    node.interfaces = [];
    await expect(facts()).rejects.toMatchObject({ code: ErrorCode.ACCOUNT_UNSUPPORTED });
  });

  it('another chain error of the class hash read fails the facts (CHAIN_ERROR)', async () => {
    node.classHash = { error: { code: 24, message: 'Block not found' } };
    const error = await facts().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(ErrorCode.CHAIN_ERROR);
  });

  it('a nonce, chain id or class hash that is not a felt is CHAIN_ERROR, never read as a number', async () => {
    for (const garble of [
      () => (node.nonce = '42'),
      () => (node.nonce = 42),
      () => (node.nonce = `0x${'f'.repeat(64)}`),
      () => (node.chainId = null),
      () => (node.chainId = 'SN_MAIN'),
      () => (node.classHash = { result: true }),
      () => (node.classHash = { result: null }),
    ]) {
      node = deployedAccount();
      garble();
      const error = await facts().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe(ErrorCode.CHAIN_ERROR);
    }
  });
});
