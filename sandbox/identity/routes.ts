/**
 * The identity provider's routes (docs/contracts.md part A) on one server: the auth host's OTP calls
 * under /api/v1, the API host's users and wallets under /v1. Credentials and origins are checked
 * by hooks in app.ts; these handlers only speak the wire format.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as Type from 'typebox';
import { isAppError } from '../../shared/errors.js';
import { FELT_HEX_PATTERN } from '../../shared/felt.js';
import { padHash, signStarkHash } from '../../shared/starknet.js';
import type { OtpBook } from './otp.js';
import type { IdentityStore, MetadataValue, StoredUser, StoredWallet } from './store.js';

export interface IdentityRouteDeps {
  store: IdentityStore;
  otp: OtpBook;
  now: () => number;
  /** told about every wallet created (the sandbox chain's faucet funds it) */
  onWalletCreated?: (wallet: StoredWallet) => void;
}

const normaliseEmail = (email: string): string => email.trim().toLowerCase();

const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^\\s*[^\\s@]+@[^\\s@]+\\s*$' });
const InitBody = Type.Object({ email: Email });
const AuthenticateBody = Type.Object({
  email: Email,
  code: Type.String({ minLength: 1, maxLength: 64 }),
});
const UserByEmailBody = Type.Object({ address: Email });
// Values are checked by hand: Fastify's Ajv coerces types, and would turn 2 into "2" in a union.
const MetadataBody = Type.Object({
  custom_metadata: Type.Object({}, { additionalProperties: true }),
});
const CreateWalletBody = Type.Object({
  chain_type: Type.String({ minLength: 1, maxLength: 40 }),
  // sandbox stand-in for the provider's owner (a user or key quorum): lets tests make a wallet
  // that app credentials alone cannot sign with
  owner: Type.Optional(Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 200 }) })),
});
const RawSignBody = Type.Object({
  params: Type.Object({ hash: Type.String({ pattern: FELT_HEX_PATTERN }) }),
});
const UserParams = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 200 }) });
const WalletParams = Type.Object({ wallet_id: Type.String({ minLength: 1, maxLength: 200 }) });
const OutboxParams = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) });

// The provider documents a 1 KB limit on custom metadata; keep the sandbox as strict.
const METADATA_MAX_BYTES = 1024;
const METADATA_MAX_KEY = 64;

const isMetadataValue = (value: unknown): value is MetadataValue =>
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value));

function userJson(user: StoredUser): Record<string, unknown> {
  return {
    id: user.id,
    created_at: user.createdAt,
    linked_accounts: [
      {
        type: 'email',
        address: user.email,
        verified_at: user.createdAt,
        first_verified_at: user.createdAt,
        latest_verified_at: user.createdAt,
      },
    ],
    mfa_methods: [],
    has_accepted_terms: false,
    is_guest: false,
    custom_metadata: user.customMetadata,
  };
}

/** Field by field on purpose: nothing else about a wallet (its key above all) goes on the wire. */
function walletJson(wallet: StoredWallet): Record<string, unknown> {
  return {
    id: wallet.id,
    address: wallet.address,
    chain_type: 'starknet',
    public_key: wallet.publicKey,
    created_at: wallet.createdAt,
    owner_id: wallet.ownerId,
    policy_ids: [],
    additional_signers: [],
  };
}

const fail = (reply: FastifyReply, status: number, error: string, code?: string): FastifyReply =>
  reply.code(status).send(code === undefined ? { error } : { error, code });

const opaqueToken = (kind: string): string =>
  `sandbox_${kind}_${randomBytes(24).toString('base64url')}`;

/** POST /api/v1/passwordless/init and /authenticate (mounted under the auth-host prefix). */
export function authHostRoutes(app: FastifyInstance, deps: IdentityRouteDeps): void {
  app.post('/passwordless/init', { schema: { body: InitBody } }, async (request) => {
    const { email } = request.body as Type.Static<typeof InitBody>;
    deps.otp.issue(normaliseEmail(email));
    return { success: true };
  });

  app.post(
    '/passwordless/authenticate',
    { schema: { body: AuthenticateBody } },
    async (request, reply) => {
      const body = request.body as Type.Static<typeof AuthenticateBody>;
      const email = normaliseEmail(body.email);
      if (!deps.otp.redeem(email, body.code))
        return fail(reply, 422, 'Invalid email and code combination');
      const existing = deps.store.userByEmail(email);
      const user = existing ?? deps.store.createUser(email, deps.now());
      return {
        user: userJson(user),
        token: opaqueToken('token'),
        privy_access_token: opaqueToken('access'),
        refresh_token: opaqueToken('refresh'),
        session_update_action: 'set',
        is_new_user: existing === undefined,
      };
    },
  );
}

/** Users and wallets (mounted under /v1). */
export function apiRoutes(app: FastifyInstance, deps: IdentityRouteDeps): void {
  app.post(
    '/users/email/address',
    { schema: { body: UserByEmailBody } },
    async (request, reply) => {
      const { address } = request.body as Type.Static<typeof UserByEmailBody>;
      const user = deps.store.userByEmail(normaliseEmail(address));
      return user === undefined ? fail(reply, 404, 'User not found') : userJson(user);
    },
  );

  app.get('/users/:user_id', { schema: { params: UserParams } }, async (request, reply) => {
    const { user_id } = request.params as Type.Static<typeof UserParams>;
    const user = deps.store.userById(user_id);
    return user === undefined ? fail(reply, 404, 'User not found') : userJson(user);
  });

  app.post(
    '/users/:user_id/custom_metadata',
    { schema: { params: UserParams, body: MetadataBody } },
    async (request, reply) => {
      const { user_id } = request.params as Type.Static<typeof UserParams>;
      const metadata = (request.body as { custom_metadata: Record<string, unknown> })
        .custom_metadata;
      if (!Object.values(metadata).every(isMetadataValue)) {
        return fail(
          reply,
          400,
          'custom_metadata values must be strings, numbers or booleans',
          'invalid_data',
        );
      }
      if (Object.keys(metadata).some((key) => key.length === 0 || key.length > METADATA_MAX_KEY)) {
        return fail(
          reply,
          400,
          `custom_metadata keys must be 1 to ${METADATA_MAX_KEY} characters`,
          'invalid_data',
        );
      }
      if (Buffer.byteLength(JSON.stringify(metadata)) > METADATA_MAX_BYTES) {
        return fail(
          reply,
          400,
          `custom_metadata is larger than ${METADATA_MAX_BYTES} bytes`,
          'invalid_data',
        );
      }
      const user = deps.store.setCustomMetadata(user_id, metadata as Record<string, MetadataValue>);
      return user === undefined ? fail(reply, 404, 'User not found') : userJson(user);
    },
  );

  app.post('/wallets', { schema: { body: CreateWalletBody } }, async (request, reply) => {
    const body = request.body as Type.Static<typeof CreateWalletBody>;
    if (body.chain_type !== 'starknet') {
      return fail(reply, 400, 'The sandbox only creates starknet wallets', 'invalid_data');
    }
    let ownerId: string | null = null;
    if (body.owner !== undefined) {
      if (deps.store.userById(body.owner.user_id) === undefined)
        return fail(reply, 400, 'Invalid wallet owner', 'invalid_data');
      ownerId = body.owner.user_id;
    }
    const wallet = deps.store.createWallet(ownerId, deps.now());
    deps.onWalletCreated?.(wallet);
    return walletJson(wallet);
  });

  app.get('/wallets/:wallet_id', { schema: { params: WalletParams } }, async (request, reply) => {
    const { wallet_id } = request.params as Type.Static<typeof WalletParams>;
    const wallet = deps.store.wallet(wallet_id);
    return wallet === undefined ? fail(reply, 404, 'Wallet not found') : walletJson(wallet);
  });

  app.post(
    '/wallets/:wallet_id/raw_sign',
    { schema: { params: WalletParams, body: RawSignBody } },
    async (request, reply) => {
      const { wallet_id } = request.params as Type.Static<typeof WalletParams>;
      const { hash } = (request.body as Type.Static<typeof RawSignBody>).params;
      const wallet = deps.store.wallet(wallet_id);
      const privateKey = deps.store.privateKeyOf(wallet_id);
      if (wallet === undefined || privateKey === undefined)
        return fail(reply, 404, 'Wallet not found');
      if (wallet.ownerId !== null) {
        return fail(
          reply,
          401,
          'This wallet has an owner: a privy-authorization-signature (authorization signature required) must accompany the request',
          'missing_authorization_signature',
        );
      }
      let signature: string;
      try {
        signature = signStarkHash(padHash(hash), privateKey);
      } catch (error) {
        if (isAppError(error)) return fail(reply, 400, error.message, 'invalid_data');
        throw error;
      }
      return { method: 'raw_sign', data: { signature, encoding: 'hex' } };
    },
  );
}

/** Sandbox-only: the emulated mailbox. Never mounted by our own server. */
export function sandboxRoutes(app: FastifyInstance, deps: IdentityRouteDeps): void {
  app.get(
    '/sandbox/outbox/:email',
    { schema: { params: OutboxParams } },
    async (request, reply) => {
      const { email } = request.params as Type.Static<typeof OutboxParams>;
      const entry = deps.otp.latest(normaliseEmail(email));
      return entry === undefined ? fail(reply, 404, 'No mail sent to this address') : entry;
    },
  );
}
