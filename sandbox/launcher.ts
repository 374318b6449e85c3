/**
 * The whole local stack in one process: the emulators on free loopback ports, and our auth
 * server wired to them. Used by `finance-tui sandbox` and by tests.
 *
 * One set of pool objects is made here and handed to both the aggregator emulator (which quotes
 * from it) and the chain emulator (whose router swaps on it), so a trade moves the next quote.
 * Every wallet the identity emulator creates is funded by the chain's faucet; the chain is in
 * memory, so on start the wallets already in the identity store are funded again on the fresh
 * chain (balances, deployments and transactions of an earlier run are gone).
 * Our server relays /paymaster to the chain emulator through the real adapter, with a per-run
 * paymaster API key (sponsored mode needs it, as AVNU's does) and sponsored gas switched on.
 *
 * Secrets of the sandbox (its JWT secret and emulated app credentials) are generated on first
 * start and kept in `<data>/sandbox/secrets.json` (0600), so sessions survive a restart of the
 * sandbox, exactly as wallets do (`<data>/sandbox/identity.json`). Environment values win when set.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AppError, ErrorCode } from '../shared/errors.js';
import type { Network } from '../shared/tokens.js';
import { ensurePrivateDir, narrowFilesIn, writeFileAtomic } from '../shared/fs.js';
import type { AppDeps } from '../server/app.js';
import { jwtSecretProblem, loadConfig, type ServerConfig } from '../server/config.js';
import { startServer } from '../server/main.js';
import { buildIdentityEmulator } from './identity/app.js';
import { buildAggregatorEmulator } from './aggregator/app.js';
import { DEFAULT_POOLS, resolvePools } from './aggregator/pools.js';
import { buildChainEmulator } from './chain/app.js';
import { SANDBOX_CHAIN_ID_HEX } from './chain/rpc.js';
import type { FaultSettings } from './faults.js';

/** Short string "SN_SANDBOX": nothing signed in the sandbox is valid on mainnet or Sepolia. */
const SANDBOX_CHAIN_ID = SANDBOX_CHAIN_ID_HEX;

interface SandboxOptions {
  /** auth server port; 0 = ephemeral. Emulators always take free ports. */
  port: number;
  /** the data folder (FINANCE_TUI_HOME or the platform folder) */
  dataDir: string;
  /** the user's environment: JWT_SECRET / IDENTITY_APP_ID / IDENTITY_APP_SECRET are honoured */
  env?: Record<string, string | undefined>;
  /** where the auth server's pino lines go */
  logStream: NonNullable<AppDeps['logStream']>;
  /** keep emulator state in memory instead of the data folder (tests) */
  inMemory?: boolean;
  faults?: { identity?: FaultSettings; aggregator?: FaultSettings; chain?: FaultSettings };
  /** identity-provider call timeout of the auth server */
  upstreamTimeoutMs?: number;
  /**
   * the network the sandbox is shaped like (docs/sandbox-chain.md "Networks"): its token
   * registry, staking contract and Vesu deployment; mainnet by default
   */
  network?: Network;
}

interface SandboxInfo {
  event: 'ready';
  sandbox: true;
  serverUrl: string;
  identityUrl: string;
  aggregatorUrl: string;
  /** the chain emulator's base URL (its sandbox-only knobs live under /sandbox/) */
  chainUrl: string;
  /** Starknet JSON-RPC of the sandbox chain */
  rpcUrl: string;
  /** SNIP-29 endpoint of the sandbox paymaster (clients go through <serverUrl>/paymaster) */
  paymasterUrl: string;
  chainId: string;
  /** the network the sandbox is shaped like: clients hold --sandbox commands to its rules */
  network: Network;
  /** this start's chain: a new in-memory chain each time (the client keys its history by it) */
  chainInstance: string;
  pid: number;
  startedAt: string;
}

export interface SandboxHandle {
  info: SandboxInfo;
  identity: FastifyInstance;
  aggregator: FastifyInstance;
  chain: FastifyInstance;
  server: FastifyInstance;
  close(): Promise<void>;
}

interface SandboxSecrets {
  jwtSecret: string;
  appId: string;
  appSecret: string;
}

function loadOrCreateSecrets(dir: string, inMemory: boolean): SandboxSecrets {
  const fresh = (): SandboxSecrets => ({
    jwtSecret: randomBytes(32).toString('base64url'),
    appId: `sandbox-app-${randomBytes(6).toString('hex')}`,
    appSecret: randomBytes(24).toString('base64url'),
  });
  if (inMemory) return fresh();
  const file = join(dir, 'secrets.json');
  if (existsSync(file)) {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<SandboxSecrets>;
      if (
        typeof parsed.jwtSecret === 'string' &&
        jwtSecretProblem(parsed.jwtSecret) === undefined &&
        parsed.appId &&
        parsed.appSecret
      ) {
        return parsed as SandboxSecrets;
      }
    } catch {
      // unreadable: replaced below; sessions signed with the old secret simply stop verifying
    }
  }
  const secrets = fresh();
  writeFileAtomic(file, `${JSON.stringify(secrets)}\n`);
  return secrets;
}

const urlOf = (app: FastifyInstance): string =>
  `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

export async function startSandbox(options: SandboxOptions): Promise<SandboxHandle> {
  const env = options.env ?? {};
  const dir = join(options.dataDir, 'sandbox');
  if (options.inMemory !== true) {
    // secrets, wallet keys and logs live here: a folder or file left looser (an older version,
    // a copy, a umask) is narrowed before anything is read or written
    ensurePrivateDir(dir);
    narrowFilesIn(dir);
  }
  const secrets = loadOrCreateSecrets(dir, options.inMemory === true);
  const appId = env.IDENTITY_APP_ID?.trim() || secrets.appId;
  const appSecret = env.IDENTITY_APP_SECRET?.trim() || secrets.appSecret;
  // the server's own rule (server/config.ts): a secret it would refuse is not used
  const jwtSecret =
    env.JWT_SECRET && jwtSecretProblem(env.JWT_SECRET) === undefined
      ? env.JWT_SECRET
      : secrets.jwtSecret;

  const started: FastifyInstance[] = [];
  const closeAll = async (): Promise<void> => {
    for (const app of started.reverse()) await app.close().catch(() => undefined);
  };

  try {
    const pools = resolvePools(DEFAULT_POOLS);
    const paymasterApiKey = randomBytes(24).toString('base64url');
    const network = options.network ?? 'mainnet';
    const chain = await buildChainEmulator({
      pools,
      paymasterApiKey,
      faults: options.faults?.chain,
      network,
    });
    started.push(chain);
    await chain.listen({ host: '127.0.0.1', port: 0 });

    const identity = await buildIdentityEmulator({
      appId,
      appSecret,
      dataFile: options.inMemory ? undefined : join(dir, 'identity.json'),
      faults: options.faults?.identity,
      onWalletCreated: (wallet) => chain.chain.fund(BigInt(wallet.address)),
    });
    started.push(identity);
    for (const wallet of identity.identityWallets()) chain.chain.fund(BigInt(wallet.address));
    await identity.listen({ host: '127.0.0.1', port: 0 });

    const aggregator = await buildAggregatorEmulator({
      faults: options.faults?.aggregator,
      poolSet: pools,
    });
    started.push(aggregator);
    await aggregator.listen({ host: '127.0.0.1', port: 0 });

    const chainUrl = urlOf(chain);
    const paymasterUrl = `${chainUrl}/paymaster`;
    const identityUrl = urlOf(identity);
    const config: ServerConfig = {
      ...loadConfig({
        IDENTITY_APP_ID: appId,
        IDENTITY_APP_SECRET: appSecret,
        JWT_SECRET: jwtSecret,
        PORT: String(options.port),
        NODE_ENV: 'development',
        IDENTITY_AUTH_URL: `${identityUrl}/api/v1`,
        IDENTITY_API_URL: identityUrl,
        PAYMASTER_URL: paymasterUrl,
        PAYMASTER_API_KEY: paymasterApiKey,
        // sponsored gas is the operator's money; in the sandbox it is play money, so on
        PAYMASTER_SPONSORED: '1',
        // the production default (10 a day) would stop a person trying the sandbox mid-session;
        // the cap itself stays on, so the sandbox still shows what hitting it looks like
        PAYMASTER_SPONSORED_DAILY_LIMIT: env.PAYMASTER_SPONSORED_DAILY_LIMIT?.trim() || '1000',
        ALLOWED_ORIGINS: env.ALLOWED_ORIGINS,
        UPSTREAM_TIMEOUT_MS:
          options.upstreamTimeoutMs === undefined ? undefined : String(options.upstreamTimeoutMs),
      }),
      host: '127.0.0.1',
      sandbox: true,
    };
    // no `paymaster` dep: startServer wires the real relay adapter to PAYMASTER_URL
    const server = await startServer(config, { logStream: options.logStream });
    started.push(server.app);

    const info: SandboxInfo = {
      event: 'ready',
      sandbox: true,
      serverUrl: server.url,
      identityUrl,
      aggregatorUrl: urlOf(aggregator),
      chainUrl,
      rpcUrl: `${chainUrl}/rpc`,
      paymasterUrl,
      chainId: SANDBOX_CHAIN_ID,
      network,
      chainInstance: randomUUID(),
      pid: process.pid,
      startedAt: new Date().toISOString(),
    };
    return { info, identity, aggregator, chain, server: server.app, close: closeAll };
  } catch (error) {
    await closeAll();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new AppError(
        ErrorCode.CONFIG_ERROR,
        `port ${options.port} is in use (another sandbox or server?); pick one with --port, or --port 0`,
      );
    }
    throw error;
  }
}
