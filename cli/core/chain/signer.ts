/**
 * A starknet.js Signer whose key lives with the identity provider: every signing method of
 * `Signer` funnels into `signRaw(msgHash)` (docs/execution.md "Signing through our server"), which
 * here calls the injected `signHash` (the core wires it to POST /sign/hash). The hash is left-padded
 * to 32 bytes first (starknet.js may hand over fewer than 64 hex digits; the signature is the
 * same). `getPubKey` returns the session's key instead of deriving one from a local key: there is
 * none, and the constructor's placeholder is never used to sign.
 */
import { type Signature, Signer, type TypedData } from 'starknet';
import { AppError, ErrorCode, isAppError } from '../../../shared/errors.js';
import { FELT_HEX } from '../../../shared/felt.js';
import { padHash } from '../../../shared/starknet.js';
import { messageHashOf } from './message-hash.js';
import { currentSignal, record } from './scope.js';

/** Signs a 0x + 64 hex hash with the session's wallet; r and s are 0x-hex felts. */
export type SignHash = (
  hashHex64: string,
  signal: AbortSignal,
) => Promise<{ r: string; s: string }>;

/**
 * Signs SNIP-12 typed data through the server, which sees what it signs (an agent grant's only
 * way: docs/server-api.md "Agent grants"); r and s are 0x-hex felts, already checked against the
 * wallet's key and the locally computed hash.
 */
export type SignTypedData = (
  typedData: TypedData,
  accountAddress: string,
  signal: AbortSignal,
) => Promise<{ r: string; s: string }>;

export class RemoteSigner extends Signer {
  readonly #publicKey: string;
  readonly #signHash: SignHash;
  readonly #signTypedData: SignTypedData | undefined;
  /** how many hashes were sent for signing (tests prove a refused build signs nothing) */
  signatures = 0;

  constructor(publicKey: string, signHash: SignHash, signTypedData?: SignTypedData) {
    // the base class wants a key; it is never used, since signRaw and getPubKey are ours
    super('0x1');
    this.#publicKey = padHash(publicKey);
    this.#signHash = signHash;
    this.#signTypedData = signTypedData;
  }

  /**
   * With `signTypedData` (an agent grant), the typed data itself goes to the server, which
   * decodes and checks it before signing; otherwise, as Signer's, the message hash goes to
   * signRaw (the hash shared with outsideIdentity: message-hash.ts).
   */
  override async signMessage(typedData: TypedData, accountAddress: string): Promise<Signature> {
    const signTypedData = this.#signTypedData;
    if (signTypedData === undefined) return this.signRaw(messageHashOf(typedData, accountAddress));
    this.signatures += 1;
    let signature: { r: string; s: string };
    try {
      signature = await signTypedData(typedData, accountAddress, currentSignal());
    } catch (error) {
      if (isAppError(error)) throw record(error);
      throw error;
    }
    return [padHash(signature.r), padHash(signature.s)];
  }

  override async getPubKey(): Promise<string> {
    return this.#publicKey;
  }

  protected override async signRaw(msgHash: string): Promise<Signature> {
    this.signatures += 1;
    let signature: { r: string; s: string };
    try {
      signature = await this.#signHash(padHash(msgHash), currentSignal());
    } catch (error) {
      if (isAppError(error)) throw record(error);
      throw error;
    }
    if (!FELT_HEX.test(signature?.r ?? '') || !FELT_HEX.test(signature?.s ?? '')) {
      throw record(
        new AppError(
          ErrorCode.INVALID_RESPONSE,
          'the signing service returned a malformed signature',
        ),
      );
    }
    return [padHash(signature.r), padHash(signature.s)];
  }
}
