/**
 * The launcher's wiring of the chain emulator: URLs in SandboxInfo, the faucet funding a wallet
 * the moment the identity emulator creates it, and a restarted sandbox (persisted identity, fresh
 * in-memory chain) funding the known wallets again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildTransferCall,
  createChainReader,
  createExecutionAccount,
  executeCalls,
  isDeployed,
  readBalances,
} from '../cli/core/chain/index.js';
import { splitSignature } from '../shared/starknet.js';
import { resolveToken } from '../shared/tokens.js';
import { type SandboxHandle, startSandbox } from '../sandbox/launcher.js';
import { postJson } from './helpers/sandbox-session.js';

const dir = mkdtempSync(join(tmpdir(), 'finance-tui-chain-launcher-'));
const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
const STRK = resolveToken('mainnet', 'STRK');
const FAUCET_STRK = 20_000n * 10n ** 18n;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function signIn(handle: SandboxHandle, email: string) {
  await postJson(`${handle.info.serverUrl}/auth/login`, { email });
  const { code } = (await (
    await fetch(`${handle.info.identityUrl}/sandbox/outbox/${encodeURIComponent(email)}`)
  ).json()) as { code: string };
  const verify = await postJson(`${handle.info.serverUrl}/auth/verify`, { email, code });
  return verify.body as {
    token: string;
    walletId: string;
    walletAddress: string;
    walletPublicKey: string;
  };
}

describe('sandbox launcher with the chain emulator', () => {
  it('publishes the chain URLs, funds a new wallet at creation, and funds it again on a fresh chain after a restart', async () => {
    const first = await startSandbox({ port: 0, dataDir: dir, logStream: sink });
    let address: string;
    try {
      expect(first.info.rpcUrl).toBe(`${first.info.chainUrl}/rpc`);
      expect(first.info.paymasterUrl).toBe(`${first.info.chainUrl}/paymaster`);
      const session = await signIn(first, 'carol@example.com');
      address = session.walletAddress;
      const ea = createExecutionAccount({
        address,
        publicKey: session.walletPublicKey,
        rpcUrl: first.info.rpcUrl,
        paymasterUrl: `${first.info.serverUrl}/paymaster`,
        headers: { authorization: `Bearer ${session.token}` },
        pollIntervalMs: 10,
        signHash: async (hash) => {
          const signed = await postJson(
            `${first.info.serverUrl}/sign/hash`,
            { walletId: session.walletId, hash },
            session.token,
          );
          const [r, s] = splitSignature(signed.body.signature as string);
          return { r, s };
        },
      });
      expect((await readBalances(ea, { tokens: [STRK] }))[0]?.balance).toBe(FAUCET_STRK);
      // sponsored through the real relay: our server adds the per-run paymaster API key
      await executeCalls(ea, [buildTransferCall(STRK, '0x1234', 10n ** 18n)], {
        feeMode: 'sponsored',
      });
      expect((await readBalances(ea, { tokens: [STRK] }))[0]?.balance).toBe(
        FAUCET_STRK - 10n ** 18n,
      );
      expect(await isDeployed(ea)).toBe(true);
    } finally {
      await first.close();
    }

    const second = await startSandbox({ port: 0, dataDir: dir, logStream: sink });
    try {
      const reader = createChainReader({ address, rpcUrl: second.info.rpcUrl });
      expect((await readBalances(reader, { tokens: [STRK] }))[0]?.balance).toBe(FAUCET_STRK);
      expect(await isDeployed(reader)).toBe(false);
    } finally {
      await second.close();
    }
  });
});
