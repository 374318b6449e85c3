/** Stark field facts, in one place and free of imports (the quote path loads this). */

/** The Stark field prime P = 2^251 + 17·2^192 + 1: a felt is an integer in [0, P). */
export const STARK_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

/** Stark ECDSA signs message hashes in [0, 2^251) only. */
export const MAX_SIGNABLE_HASH = 2n ** 251n - 1n;
