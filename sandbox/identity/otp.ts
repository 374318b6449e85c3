/**
 * One-time e-mail codes and the sandbox mailbox. Codes live in memory only (a restarted sandbox
 * simply asks for a new one) and never leave this module except through the outbox.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

interface OutboxEntry {
  email: string;
  code: string;
  /** ISO 8601 */
  sentAt: string;
}

interface PendingCode {
  code: string;
  expiresAt: number;
  wrongTries: number;
}

interface OtpBookOptions {
  ttlMs: number;
  maxAttempts: number;
  now: () => number;
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

export class OtpBook {
  readonly #options: OtpBookOptions;
  readonly #pending = new Map<string, PendingCode>();
  readonly #outbox = new Map<string, OutboxEntry>();

  constructor(options: OtpBookOptions) {
    this.#options = options;
  }

  /** Issues a new code for `email` (normalised), replacing any earlier one, and "sends" it. */
  issue(email: string): void {
    const now = this.#options.now();
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    this.#pending.set(email, { code, expiresAt: now + this.#options.ttlMs, wrongTries: 0 });
    this.#outbox.set(email, { email, code, sentAt: new Date(now).toISOString() });
  }

  /**
   * True exactly once for the right, unexpired code; the code is then used up. A wrong guess
   * counts against the code, which dies after `maxAttempts` wrong guesses.
   */
  redeem(email: string, code: string): boolean {
    const pending = this.#pending.get(email);
    if (pending === undefined) return false;
    if (this.#options.now() >= pending.expiresAt) {
      this.#pending.delete(email);
      return false;
    }
    // compare digests: equal length, constant time, whatever the caller sent
    if (timingSafeEqual(digest(pending.code), digest(code))) {
      this.#pending.delete(email);
      return true;
    }
    pending.wrongTries += 1;
    if (pending.wrongTries >= this.#options.maxAttempts) this.#pending.delete(email);
    return false;
  }

  /** The latest mail sent to `email`, as the sandbox-only outbox route shows it. */
  latest(email: string): OutboxEntry | undefined {
    return this.#outbox.get(email);
  }
}
