/**
 * The identity emulator's durable state: users and app-managed wallets with their real Stark
 * private keys. With a data file the whole state is rewritten atomically (temp + rename, mode
 * 0600) after every change; the emulator is single-process and small, so a synchronous full
 * rewrite is the simplest way to never interleave two writes.
 * Private keys leave this module only through `privateKeyOf`, used by the signer.
 */
import { randomInt } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { getStarkKey, utils } from '@scure/starknet';
import * as Type from 'typebox';
import { Value } from 'typebox/value';
import { FELT_HEX64_PATTERN } from '../../shared/felt.js';
import { writeFileAtomic } from '../../shared/fs.js';
import { argentAccountAddressInMemory, padHash } from '../../shared/starknet.js';

export type MetadataValue = string | number | boolean;

const MetadataSchema = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
);

const StoredUserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  /** unix seconds, as the provider reports users */
  createdAt: Type.Number(),
  customMetadata: MetadataSchema,
});
export type StoredUser = Type.Static<typeof StoredUserSchema>;

const StoredWalletSchema = Type.Object({
  id: Type.String(),
  address: Type.String(),
  publicKey: Type.String(),
  privateKey: Type.String({ pattern: FELT_HEX64_PATTERN }),
  /** unix milliseconds, as the provider reports wallets */
  createdAt: Type.Number(),
  ownerId: Type.Union([Type.String(), Type.Null()]),
});
type StoredWalletWithKey = Type.Static<typeof StoredWalletSchema>;
/** What the rest of the emulator sees of a wallet: everything but the key. */
export type StoredWallet = Omit<StoredWalletWithKey, 'privateKey'>;

const StateSchema = Type.Object({
  version: Type.Literal(1),
  users: Type.Array(StoredUserSchema),
  wallets: Type.Array(StoredWalletSchema),
});
type State = Type.Static<typeof StateSchema>;

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Ids shaped like the provider's (cuid-like, lower-case alphanumerics). */
function randomId(length: number): string {
  let id = '';
  for (let i = 0; i < length; i += 1) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

function publicView(wallet: StoredWalletWithKey): StoredWallet {
  const { privateKey: _secret, ...rest } = wallet;
  return rest;
}

export class IdentityStore {
  readonly #file: string | undefined;
  readonly #users = new Map<string, StoredUser>();
  readonly #userIdByEmail = new Map<string, string>();
  readonly #wallets = new Map<string, StoredWalletWithKey>();

  private constructor(file: string | undefined) {
    this.#file = file;
  }

  /** Opens the state file (or starts empty); a corrupt file is an error, never silently reset. */
  static open(file: string | undefined): IdentityStore {
    const store = new IdentityStore(file);
    if (file === undefined || !existsSync(file)) return store;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new Error(
        `identity emulator: ${file} is not valid JSON; move it away to start with empty state`,
      );
    }
    if (!Value.Check(StateSchema, parsed)) {
      throw new Error(
        `identity emulator: ${file} is not an identity state file; move it away to start with empty state`,
      );
    }
    // the file holds private keys: narrow a copy that arrived with wider permissions
    chmodSync(file, 0o600);
    for (const user of parsed.users) {
      store.#users.set(user.id, user);
      store.#userIdByEmail.set(user.email, user.id);
    }
    for (const wallet of parsed.wallets) store.#wallets.set(wallet.id, wallet);
    return store;
  }

  userById(id: string): StoredUser | undefined {
    return this.#users.get(id);
  }

  /** `email` must already be normalised (trimmed, lower-case). */
  userByEmail(email: string): StoredUser | undefined {
    const id = this.#userIdByEmail.get(email);
    return id === undefined ? undefined : this.#users.get(id);
  }

  createUser(email: string, nowMs: number): StoredUser {
    const user: StoredUser = {
      id: `did:privy:${randomId(25)}`,
      email,
      createdAt: Math.floor(nowMs / 1000),
      customMetadata: {},
    };
    this.#users.set(user.id, user);
    this.#userIdByEmail.set(email, user.id);
    this.#persist();
    return user;
  }

  /** Replaces the whole metadata object, as the provider does. */
  setCustomMetadata(
    userId: string,
    metadata: Record<string, MetadataValue>,
  ): StoredUser | undefined {
    const user = this.#users.get(userId);
    if (user === undefined) return undefined;
    user.customMetadata = { ...metadata };
    this.#persist();
    return user;
  }

  /** A fresh Stark key pair and its ArgentX v0.5.0 address. */
  createWallet(ownerId: string | null, nowMs: number): StoredWallet {
    const privateKey = padHash(`0x${Buffer.from(utils.randomPrivateKey()).toString('hex')}`);
    const publicKey = padHash(getStarkKey(privateKey));
    const wallet: StoredWalletWithKey = {
      id: randomId(24),
      address: argentAccountAddressInMemory(publicKey),
      publicKey,
      privateKey,
      createdAt: nowMs,
      ownerId,
    };
    this.#wallets.set(wallet.id, wallet);
    this.#persist();
    return publicView(wallet);
  }

  wallet(id: string): StoredWallet | undefined {
    const wallet = this.#wallets.get(id);
    return wallet === undefined ? undefined : publicView(wallet);
  }

  /** Every wallet (keys excluded): the launcher funds them on the sandbox chain at start. */
  wallets(): StoredWallet[] {
    return [...this.#wallets.values()].map(publicView);
  }

  privateKeyOf(walletId: string): string | undefined {
    return this.#wallets.get(walletId)?.privateKey;
  }

  #persist(): void {
    if (this.#file === undefined) return;
    const state: State = {
      version: 1,
      users: [...this.#users.values()],
      wallets: [...this.#wallets.values()],
    };
    writeFileAtomic(this.#file, `${JSON.stringify(state, null, 2)}\n`, 0o600);
  }
}
