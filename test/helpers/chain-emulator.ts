/**
 * The chain emulator alone on 127.0.0.1 for the contract tests beside sandbox/chain/: funded
 * local wallets whose calls go build → sign → execute through its SNIP-29 paymaster (sponsored),
 * views through starknet.js's RpcProvider.callContract, and its sandbox-only knobs.
 */
import { getStarkKey, utils } from '@scure/starknet';
import type { FastifyInstance } from 'fastify';
import { RpcProvider, typedData } from 'starknet';
import { expect } from 'vitest';
import { outsideExecutionHash } from '../../cli/core/chain/outside-hash.js';
import { SELECTOR, u256Felts } from '../../shared/erc20.js';
import {
  ARGENT_X_V050_CLASS_HASH,
  argentAccountAddress,
  padHash,
  signStarkHash,
  splitSignature,
} from '../../shared/starknet.js';
import { DEFAULT_POOLS, resolvePools } from '../../sandbox/aggregator/pools.js';
import { buildChainEmulator } from '../../sandbox/chain/app.js';
import { sharedSchemaCompilers } from './schema-compilers.js';

export const hex = (value: bigint): string => `0x${value.toString(16)}`;

export interface EmulatorWallet {
  privateKey: string;
  publicKey: string;
  address: string;
  deployed: boolean;
}

export interface EmulatorCall {
  to: string;
  selector: bigint;
  calldata: bigint[];
}

export interface EmulatorReceipt {
  /**
   * the receipt's status, or 'REFUSED_AT_BUILD' when the paymaster's build simulated the calls
   * and refused them (156 TRANSACTION_EXECUTION_ERROR; `revert_reason` is its execution_error, no
   * events, nothing was relayed)
   */
  execution_status: string;
  revert_reason?: string;
  events: Array<{ from_address: string; keys: string[]; data: string[] }>;
}

export interface Emulator {
  app: FastifyInstance;
  url: string;
  provider: RpcProvider;
  post(path: string, body: unknown): Promise<{ status: number; json: unknown }>;
  rpc(
    path: '/rpc' | '/paymaster',
    method: string,
    params: unknown,
  ): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }>;
  /** a fresh key's account, funded by the faucet (deployed by its first transaction) */
  wallet(): Promise<EmulatorWallet>;
  /** builds, signs and executes `calls` (sponsored); the receipt, or the build's refusal (see EmulatorReceipt) */
  transact(wallet: EmulatorWallet, calls: EmulatorCall[]): Promise<EmulatorReceipt>;
  view(address: string, entrypoint: string, calldata?: string[]): Promise<bigint[]>;
  balance(token: string, owner: string): Promise<bigint>;
  /** moves the chain's clock; the new chain time (unix seconds) */
  advance(seconds: number): Promise<number>;
  close(): Promise<void>;
}

export const approveCall = (token: string, spender: string, amount: bigint): EmulatorCall => ({
  to: token,
  selector: SELECTOR.approve,
  calldata: [BigInt(spender), ...u256Felts(amount).map(BigInt)],
});

export const u256Of = (felts: readonly bigint[], at = 0): bigint =>
  (felts[at] as bigint) + ((felts[at + 1] as bigint) << 128n);

/** the emulators started here share their compiled schemas (helpers/schema-compilers.ts) */
const schemaController = sharedSchemaCompilers();

export async function startEmulator(): Promise<Emulator> {
  const app = await buildChainEmulator({ pools: resolvePools(DEFAULT_POOLS), schemaController });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const provider = new RpcProvider({ nodeUrl: `${url}/rpc` });
  let id = 0;

  const post: Emulator['post'] = async (path, body) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  };
  const rpc: Emulator['rpc'] = async (path, method, params) => {
    id += 1;
    return (await post(path, { jsonrpc: '2.0', id, method, params })).json as never;
  };
  const view: Emulator['view'] = async (address, entrypoint, calldata = []) =>
    (await provider.callContract({ contractAddress: address, entrypoint, calldata })).map(BigInt);

  return {
    app,
    url,
    provider,
    post,
    rpc,
    view,
    async wallet() {
      const privateKey = padHash(`0x${Buffer.from(utils.randomPrivateKey()).toString('hex')}`);
      const publicKey = padHash(getStarkKey(privateKey));
      const wallet = {
        privateKey,
        publicKey,
        address: argentAccountAddress(publicKey),
        deployed: false,
      };
      expect((await post('/sandbox/chain/fund', { address: wallet.address })).status).toBe(200);
      return wallet;
    },
    async transact(wallet, calls) {
      const invoke = {
        user_address: wallet.address,
        calls: calls.map((c) => ({
          to: c.to,
          selector: hex(c.selector),
          calldata: c.calldata.map(hex),
        })),
      };
      const deployment = {
        address: wallet.address,
        class_hash: ARGENT_X_V050_CLASS_HASH,
        salt: wallet.publicKey,
        calldata: ['0x0', wallet.publicKey, '0x1'],
        version: 1,
      };
      const transaction = wallet.deployed
        ? { type: 'invoke', invoke }
        : { type: 'deploy_and_invoke', invoke, deployment };
      const parameters = { version: '0x1', fee_mode: { mode: 'sponsored' } };
      const answer = await rpc('/paymaster', 'paymaster_buildTransaction', {
        transaction,
        parameters,
      });
      if (answer.error !== undefined) {
        // the build simulates the calls: a revert is refused there, with its reason
        expect(answer.error.code).toBe(156);
        const reason = (answer.error.data as { execution_error: string }).execution_error;
        return { execution_status: 'REFUSED_AT_BUILD', revert_reason: reason, events: [] };
      }
      const built = answer.result as {
        type: string;
        typed_data: unknown;
        parameters: unknown;
        deployment?: unknown;
      };
      // signed as the client signs it (its own SNIP-12 hash of an outside execution); the
      // emulator checks the signature with starknet.js's hash, so the two stay held equal
      const hash =
        outsideExecutionHash(built.typed_data, wallet.address) ??
        typedData.getMessageHash(built.typed_data as never, wallet.address);
      const signature = splitSignature(signStarkHash(hash, wallet.privateKey));
      const executed = await rpc('/paymaster', 'paymaster_executeTransaction', {
        transaction: {
          type: built.type,
          invoke: { user_address: wallet.address, typed_data: built.typed_data, signature },
          ...(built.deployment === undefined ? {} : { deployment: built.deployment }),
        },
        parameters: built.parameters,
      });
      expect(executed.error).toBeUndefined();
      const receipt = (
        await rpc('/rpc', 'starknet_getTransactionReceipt', {
          transaction_hash: (executed.result as { transaction_hash: string }).transaction_hash,
        })
      ).result as EmulatorReceipt;
      // all-or-nothing: a reverted deploy_and_invoke deploys nothing either
      if (receipt.execution_status === 'SUCCEEDED') wallet.deployed = true;
      return receipt;
    },
    async balance(token, owner) {
      return u256Of(await view(token, 'balance_of', [owner]));
    },
    async advance(seconds) {
      const { status, json } = await post('/sandbox/chain/advance', { seconds });
      expect(status).toBe(200);
      return (json as { chainTime: number }).chainTime;
    },
    close: () => app.close(),
  };
}
