/**
 * buildTestApp(): the auth server with a test config, an in-memory fake identity provider (pure
 * logic with real Stark keys, so signatures verify) and a captured log stream.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ec } from 'starknet';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { type AppDeps, buildApp } from '../../server/app.js';
import { type ServerConfig, TRANSPORT_DEFAULTS, tokenAudience } from '../../server/config.js';
import { createTokenService, type TokenService } from '../../server/jwt.js';
import { sharedSchemaCompilers } from './schema-compilers.js';
import type {
  IdentityProvider,
  IdentityUser,
  IdentityWallet,
  MetadataValue,
  PaymasterRelay,
} from '../../server/providers/types.js';

export const TEST_JWT_SECRET = 'ebsxU3TmisYF7gbKg94CxDqlS48nAcUKaVf1GCx430c';
export const TEST_APP_SECRET = 'test-identity-app-secret-zyxwvutsrq';

export function testConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    identityAppId: 'test-app',
    identityAppSecret: TEST_APP_SECRET,
    jwtSecret: TEST_JWT_SECRET,
    port: 0,
    host: '127.0.0.1',
    nodeEnv: 'test',
    allowedOrigins: ['https://app.example.com'],
    publicUrl: undefined,
    paymasterUrl: 'http://127.0.0.1:9/unused',
    paymasterApiKey: undefined,
    paymasterSponsored: false,
    sponsoredDailyLimit: 10,
    identityAuthUrl: 'http://127.0.0.1:9/unused',
    identityApiUrl: 'http://127.0.0.1:9/unused',
    trustProxy: false,
    redisUrl: undefined,
    redisPersistence: 'required',
    upstreamTimeoutMs: 2_000,
    ...TRANSPORT_DEFAULTS,
    sandbox: false,
    ...overrides,
  };
}

/** An identity provider in memory: OTP outbox, users, app-managed wallets with real keys. */
export class FakeIdentity implements IdentityProvider {
  readonly outbox = new Map<string, string>();
  readonly users = new Map<string, IdentityUser>();
  readonly wallets = new Map<string, { wallet: IdentityWallet; privateKey: string }>();
  readonly signed: Array<{ walletId: string; hash: string }> = [];

  async sendOtp(email: string): Promise<void> {
    this.outbox.set(email.toLowerCase(), String(randomInt(0, 1_000_000)).padStart(6, '0'));
  }

  async verifyOtp(
    email: string,
    code: string,
  ): Promise<{ user: IdentityUser; isNewUser: boolean }> {
    const key = email.toLowerCase();
    if (this.outbox.get(key) !== code)
      throw new AppError(ErrorCode.INVALID_OTP, 'Invalid e-mail and code combination');
    this.outbox.delete(key);
    const existing = this.users.get(key);
    if (existing !== undefined) return { user: existing, isNewUser: false };
    return { user: this.addUser(key), isNewUser: true };
  }

  addUser(email: string): IdentityUser {
    const user: IdentityUser = {
      id: `did:privy:${randomUUID()}`,
      email: email.toLowerCase(),
      customMetadata: {},
    };
    this.users.set(user.email as string, user);
    return user;
  }

  async getUserByEmail(email: string): Promise<IdentityUser | null> {
    return this.users.get(email.toLowerCase()) ?? null;
  }

  async setCustomMetadata(
    userId: string,
    metadata: Record<string, MetadataValue>,
  ): Promise<IdentityUser> {
    const user = [...this.users.values()].find((u) => u.id === userId);
    if (user === undefined) throw new AppError(ErrorCode.IDENTITY_PROVIDER_ERROR, 'no such user');
    user.customMetadata = { ...metadata };
    return user;
  }

  async createWallet(): Promise<IdentityWallet> {
    const privateKey = `0x${randomBytes(31).toString('hex')}`;
    const publicKey = ec.starkCurve.getStarkKey(privateKey);
    const wallet: IdentityWallet = {
      id: `wallet-${randomUUID()}`,
      // not the real ArgentX derivation: routes only pass the address through
      address: `0x${randomBytes(31).toString('hex').padStart(64, '0')}`,
      publicKey,
      chainType: 'starknet',
      ownerId: null,
    };
    this.wallets.set(wallet.id, { wallet, privateKey });
    return wallet;
  }

  async getWallet(walletId: string): Promise<IdentityWallet | null> {
    return this.wallets.get(walletId)?.wallet ?? null;
  }

  async rawSign(walletId: string, hash: string): Promise<string> {
    const entry = this.wallets.get(walletId);
    if (entry === undefined)
      throw new AppError(ErrorCode.IDENTITY_PROVIDER_ERROR, 'unknown wallet');
    this.signed.push({ walletId, hash });
    const signature = ec.starkCurve.sign(hash, entry.privateKey);
    return `0x${signature.r.toString(16).padStart(64, '0')}${signature.s.toString(16).padStart(64, '0')}`;
  }
}

const nullPaymaster: PaymasterRelay = {
  async relay(request) {
    return { jsonrpc: '2.0', id: request.id ?? null, result: true };
  },
};

export interface SeededUser {
  user: IdentityUser;
  wallet: IdentityWallet;
  token: string;
}

export interface TestApp {
  app: FastifyInstance;
  config: ServerConfig;
  /** the app's identity provider when it is a FakeIdentity; with another provider, an unused fake */
  identity: FakeIdentity;
  tokens: TokenService;
  /** everything the app logged so far */
  logs(): string;
  /** a user with a linked wallet and a valid token, without spending the login limit */
  seedUser(email?: string): Promise<SeededUser>;
  close(): Promise<void>;
}

interface TestAppOverrides {
  config?: Partial<ServerConfig>;
  deps?: Partial<AppDeps>;
}

/**
 * The apps built here share their compiled reply schemas: the routes' schemas are module constants,
 * compiled once per test file in the unit project (each file has its own modules) and once per
 * worker in the process project (docs/decisions.md "Apps built by one test file compile each
 * schema once").
 */
const schemaController = sharedSchemaCompilers();

export async function buildTestApp(overrides: TestAppOverrides = {}): Promise<TestApp> {
  const config = testConfig(overrides.config);
  const given = overrides.deps?.identity;
  const identity = given instanceof FakeIdentity ? given : new FakeIdentity();
  let captured = '';
  const logStream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      captured += chunk.toString();
      callback();
    },
  });
  // any provider may be given (the real adapter, say); the fake only stands in when none is
  const app = await buildApp(config, {
    paymaster: nullPaymaster,
    logStream,
    logLevel: 'debug',
    version: '9.9.9-test',
    schemaController,
    ...overrides.deps,
    identity: given ?? identity,
  });
  await app.ready();
  const tokens = createTokenService({ secret: config.jwtSecret, audience: tokenAudience(config) });
  return {
    app,
    config,
    identity,
    tokens,
    logs: () => captured,
    async seedUser(email = `user-${randomUUID().slice(0, 8)}@example.com`) {
      const user = identity.addUser(email);
      const wallet = await identity.createWallet();
      await identity.setCustomMetadata(user.id, { server_wallet_id: wallet.id });
      const { token } = await tokens.issue({
        userId: user.id,
        email: user.email as string,
        walletId: wallet.id,
        walletAddress: wallet.address,
      });
      return { user, wallet, token };
    },
    close: () => app.close(),
  };
}

/** JSON POST through app.inject. */
export function post(
  app: FastifyInstance,
  url: string,
  body: unknown,
  options: { token?: string; headers?: Record<string, string>; remoteAddress?: string } = {},
) {
  return app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...options.headers,
    },
    payload: JSON.stringify(body),
    ...(options.remoteAddress === undefined ? {} : { remoteAddress: options.remoteAddress }),
  });
}

/**
 * The stable error code of a response body: `error.code`, or `error.data.code` for a JSON-RPC
 * refusal (POST /paymaster answers every refusal as a JSON-RPC error object).
 */
export function errorCodeOf(body: unknown): string | undefined {
  const error = (body as { error?: { code?: unknown; data?: { code?: unknown } } } | null)?.error;
  const code = typeof error?.code === 'number' ? error.data?.code : error?.code;
  return typeof code === 'string' ? code : undefined;
}
