/**
 * The auth server's wire contract (docs/architecture.md "Auth server contract"), declared once.
 * The server uses these schemas for validation and serialisation; the client uses them to
 * validate responses and for typed results.
 */
import * as Type from 'typebox';
import { FELT_HEX_PATTERN, SIGNATURE_HEX_PATTERN } from './felt.js';

/** 0x-prefixed hex felt; the 252-bit range check is done by the route (schemas cannot compare bigints). */
const HexString = Type.String({ pattern: FELT_HEX_PATTERN });

// Deliberately loose: the identity provider is the judge of what a deliverable address is. But
// no whitespace and no invisible characters (controls such as NUL, zero-width and bidi format
// characters, separators, surrogates, private use): they make two addresses look alike and would
// reach the provider as they are.
const EMAIL_CHAR = '[^\\s@\\p{Cc}\\p{Cf}\\p{Cs}\\p{Co}\\p{Z}]';
const EMAIL_CORE = `${EMAIL_CHAR}+@${EMAIL_CHAR}+\\.${EMAIL_CHAR}+`;
export const Email = Type.String({ minLength: 3, maxLength: 254, pattern: `^${EMAIL_CORE}$` });
/** An e-mail as a client may echo it back (starkfi's /wallet/find): surrounding spaces allowed, compared trimmed. */
const EmailWithSpaces = Type.String({
  minLength: 3,
  maxLength: 320,
  pattern: `^\\s*${EMAIL_CORE}\\s*$`,
});

/** The comparison the server makes between an e-mail in a request and the token's: trimmed, case-insensitive. */
export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export const OtpCode = Type.String({ pattern: '^[0-9]{6}$' });

export const LoginRequest = Type.Object({ email: Email }, { additionalProperties: false });
export type LoginRequest = Type.Static<typeof LoginRequest>;
export const LoginResponse = Type.Object({ success: Type.Literal(true), message: Type.String() });
export type LoginResponse = Type.Static<typeof LoginResponse>;

export const VerifyRequest = Type.Object(
  { email: Email, code: OtpCode },
  { additionalProperties: false },
);
export type VerifyRequest = Type.Static<typeof VerifyRequest>;
export const VerifyResponse = Type.Object({
  token: Type.String(),
  expiresAt: Type.String({ description: 'ISO 8601 time the token expires' }),
  userId: Type.String(),
  walletId: Type.String(),
  walletAddress: Type.String(),
  walletPublicKey: Type.String(),
  isExisting: Type.Boolean({ description: 'true when the user already had a usable wallet' }),
});
export type VerifyResponse = Type.Static<typeof VerifyResponse>;

export const Wallet = Type.Object({
  id: Type.String(),
  address: Type.String(),
  publicKey: Type.String(),
});
export type Wallet = Type.Static<typeof Wallet>;

export const EmptyRequest = Type.Object({}, { additionalProperties: false });
/** POST /auth/logout: the presented token and every earlier token of its user no longer work. */
export const LogoutResponse = Type.Object({ success: Type.Literal(true), message: Type.String() });
export type LogoutResponse = Type.Static<typeof LogoutResponse>;
/** `{}`, or `{email}` (starkfi sends it): it must then be the token's e-mail, else 403 EMAIL_MISMATCH. */
export const WalletFindRequest = Type.Object(
  { email: Type.Optional(EmailWithSpaces) },
  { additionalProperties: false },
);
export type WalletFindRequest = Type.Static<typeof WalletFindRequest>;
export const WalletFindResponse = Type.Object({ wallet: Type.Union([Wallet, Type.Null()]) });
export type WalletFindResponse = Type.Static<typeof WalletFindResponse>;
export const WalletCreateResponse = Type.Object({
  wallet: Wallet,
  token: Type.String(),
  expiresAt: Type.String(),
});
export type WalletCreateResponse = Type.Static<typeof WalletCreateResponse>;

export const SignHashRequest = Type.Object(
  { walletId: Type.String({ minLength: 1, maxLength: 200 }), hash: HexString },
  { additionalProperties: false },
);
export type SignHashRequest = Type.Static<typeof SignHashRequest>;
export const Signature = Type.String({ pattern: SIGNATURE_HEX_PATTERN });
export const SignHashResponse = Type.Object({ signature: Signature });
export type SignHashResponse = Type.Static<typeof SignHashResponse>;

/** SNIP-12 typed data, structurally: the hashing code validates the rest. */
export const TypedData = Type.Object({
  types: Type.Record(
    Type.String(),
    Type.Array(
      Type.Object({ name: Type.String(), type: Type.String() }, { additionalProperties: true }),
    ),
  ),
  primaryType: Type.String({ minLength: 1 }),
  domain: Type.Object({}, { additionalProperties: true }),
  message: Type.Object({}, { additionalProperties: true }),
});
/**
 * A vToken's deploy-address proof (shared/vesu.ts VTokenProof), sent with typed data signed under
 * an agent grant: the server recomputes the address (docs/server-api.md "Agent grants"). The words
 * are ByteArray felts of at most 8 full words (shared/vesu.ts MAX_VTOKEN_WORDS).
 */
const VTokenWords = Type.Array(HexString, { minItems: 3, maxItems: 11 });
export const VTokenProofSchema = Type.Object(
  {
    vToken: HexString,
    pool: HexString,
    asset: HexString,
    debtAsset: HexString,
    classHash: HexString,
    name: VTokenWords,
    symbol: VTokenWords,
  },
  { additionalProperties: false },
);
/**
 * Proofs per signing: one per vToken a plan calls (a batch holds at most 5 legs); each costs the
 * server one deploy address of at most 25 felts (server/grant-calls.ts withProvenVTokens).
 */
export const MAX_VTOKEN_PROOFS = 5;

export const SignMessageRequest = Type.Object(
  {
    walletId: Type.String({ minLength: 1, maxLength: 200 }),
    message: Type.Union([Type.String({ minLength: 1, maxLength: 10_000 }), TypedData]),
    vTokens: Type.Optional(Type.Array(VTokenProofSchema, { maxItems: MAX_VTOKEN_PROOFS })),
  },
  { additionalProperties: false },
);
export type SignMessageRequest = Type.Static<typeof SignMessageRequest>;
export const SignMessageResponse = Type.Object({ signature: Signature, messageHash: HexString });
export type SignMessageResponse = Type.Static<typeof SignMessageResponse>;

export const JsonRpcRequest = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Null()])),
    method: Type.String({ minLength: 1, maxLength: 100 }),
    params: Type.Optional(
      Type.Union([Type.Object({}, { additionalProperties: true }), Type.Array(Type.Unknown())]),
    ),
  },
  { additionalProperties: false },
);
export type JsonRpcRequest = Type.Static<typeof JsonRpcRequest>;

export const RootResponse = Type.Object({
  name: Type.String(),
  version: Type.String(),
  status: Type.Literal('ok'),
  sandbox: Type.Optional(
    Type.Literal(true, { description: 'present only when the server runs in the sandbox' }),
  ),
});
export type RootResponse = Type.Static<typeof RootResponse>;
export const HealthResponse = Type.Object({ status: Type.Literal('ok') });
export type HealthResponse = Type.Static<typeof HealthResponse>;
/** GET /health's 503: the server runs, but a store it needs does not answer (docs/server-api.md) */
export const DegradedHealthResponse = Type.Object({
  status: Type.Literal('degraded'),
  unavailable: Type.Array(Type.Literal('redis'), { minItems: 1 }),
});
export type DegradedHealthResponse = Type.Static<typeof DegradedHealthResponse>;

/**
 * What POST /sign/message signs when `message` is a plain string: never the text as a hash, but
 * this fixed SNIP-12 revision-1 typed data, hashed for the token's wallet address. A client can
 * rebuild it to check `messageHash` (starknet.js `typedData.getMessageHash(data, address)`).
 * chainId is a short string: `SN_MAIN` on the real network, `SN_SANDBOX` in the sandbox.
 */
const TEXT_MESSAGE_DOMAIN_NAME = 'finance-tui';
const TEXT_MESSAGE_DOMAIN_VERSION = '1';

export function textMessageTypedData(text: string, chainId: string) {
  return {
    types: {
      StarknetDomain: [
        { name: 'name', type: 'shortstring' },
        { name: 'version', type: 'shortstring' },
        { name: 'chainId', type: 'shortstring' },
        { name: 'revision', type: 'shortstring' },
      ],
      // revision 1 `string` is a long string (ByteArray), so any text length hashes correctly
      Message: [{ name: 'text', type: 'string' }],
    },
    primaryType: 'Message',
    domain: {
      name: TEXT_MESSAGE_DOMAIN_NAME,
      version: TEXT_MESSAGE_DOMAIN_VERSION,
      chainId,
      revision: '1',
    },
    message: { text },
  };
}

/**
 * Agent grants (docs/server-api.md "Agent grants"): amounts are base units as decimal strings
 * (bigint on both sides), addresses 0x-hex felts. Created, listed and revoked with the person's
 * session; `GET /grants/current` answers the grant token's own grant.
 */
export const BaseUnits = Type.String({ pattern: '^[0-9]{1,78}$' });
const GrantDailyRequest = Type.Object(
  { token: HexString, amount: BaseUnits },
  { additionalProperties: false },
);
export const GrantCreateRequest = Type.Object(
  {
    daily: Type.Array(GrantDailyRequest, { minItems: 1, maxItems: 16 }),
    recipients: Type.Array(HexString, { maxItems: 20 }),
    /** seconds from now */
    expiresInSeconds: Type.Integer({ minimum: 1, maximum: 90 * 24 * 60 * 60 }),
  },
  { additionalProperties: false },
);
export type GrantCreateRequest = Type.Static<typeof GrantCreateRequest>;
export const GrantView = Type.Object({
  id: Type.String(),
  walletAddress: Type.String(),
  daily: Type.Array(
    Type.Object({
      token: Type.String(),
      amount: BaseUnits,
      /** charged in the last 24 h */
      spent: BaseUnits,
      left: BaseUnits,
    }),
  ),
  recipients: Type.Array(Type.String()),
  /** ISO 8601 */
  createdAt: Type.String(),
  expiresAt: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')]),
});
export type GrantView = Type.Static<typeof GrantView>;
export const GrantCreateResponse = Type.Object({
  grant: GrantView,
  /** shown once: the store keeps only its hash */
  token: Type.String(),
});
export type GrantCreateResponse = Type.Static<typeof GrantCreateResponse>;
export const GrantListResponse = Type.Object({ grants: Type.Array(GrantView) });
export type GrantListResponse = Type.Static<typeof GrantListResponse>;
export const GrantResponse = Type.Object({ grant: GrantView });
export type GrantResponse = Type.Static<typeof GrantResponse>;
export const GrantIdParams = Type.Object(
  { id: Type.String({ pattern: '^[0-9a-f-]{36}$' }) },
  { additionalProperties: false },
);
