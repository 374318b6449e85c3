/**
 * The history file's schema (cli/core/history.ts keeps the file): one document of at most
 * MAX_ENTRIES entries. A module of its own, importing nothing but TypeBox and the felt and kind
 * names, so that the bin's build can generate its validator from it (cli/core/history-check.ts).
 */
import * as Type from 'typebox';
import { FELT_HEX64_PATTERN, FELT_HEX_PATTERN } from '../../shared/felt.js';
import { ACTION_KIND_NAMES, type ActionKind } from './actions/kinds.js';

export const MAX_ENTRIES = 1000;

const Short = (max: number) => Type.String({ maxLength: max });
export const HistoryAmount = Type.Object(
  {
    /** out: leaves the account; in: arrives (expected, at least `minimum`, or as received) */
    direction: Type.Union([Type.Literal('out'), Type.Literal('in')]),
    symbol: Short(16),
    address: Type.String({ pattern: FELT_HEX64_PATTERN }),
    amount: Short(100),
    baseUnits: Type.String({ pattern: '^[0-9]{1,78}$' }),
    /** how sure the figure is: sent, the confirmed minimum, an exact amount (a claim), or what the receipt shows arrived */
    basis: Type.Union([
      Type.Literal('sent'),
      Type.Literal('minimum'),
      Type.Literal('exact'),
      Type.Literal('received'),
    ]),
    /** transfers: the recipient */
    to: Type.Optional(Type.String({ pattern: FELT_HEX64_PATTERN })),
  },
  { additionalProperties: false },
);
const Felt = Type.String({ pattern: FELT_HEX_PATTERN });
export const HistoryEntry = Type.Object(
  {
    /** this entry's own key (entries written before it had none: their hash is their key) */
    id: Type.Optional(Type.String({ pattern: '^[0-9a-f]{16,32}$' })),
    time: Short(40),
    updatedAt: Short(40),
    /** the action kind (kinds.ts, listed once) */
    kind: Type.Unsafe<ActionKind>(Type.Union(ACTION_KIND_NAMES.map((k) => Type.Literal(k)))),
    network: Type.Union([Type.Literal('mainnet'), Type.Literal('sepolia')]),
    sandbox: Type.Boolean(),
    /**
     * which chain it was sent on: "mainnet", "sepolia", or "sandbox:<id>" (each sandbox start is
     * a new chain; docs/architecture.md "History"). Absent on entries written before it was kept.
     */
    chain: Type.Optional(Type.String({ pattern: '^(mainnet|sepolia|sandbox:[0-9a-z-]{1,64})$' })),
    account: Type.String({ pattern: FELT_HEX64_PATTERN }),
    /** 0x + 64 lower-case hex (older files held shorter spellings: normalised when read); absent when the answer was lost */
    hash: Type.Optional(Type.String({ pattern: FELT_HEX_PATTERN })),
    /**
     * pending: sent, no receipt yet; succeeded/reverted: from the chain; unknown: the signed
     * transaction left the client and how it ended is not known yet; not-sent: it provably never
     * executed (its outside-execution deadline passed with its nonce unused)
     */
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('succeeded'),
      Type.Literal('reverted'),
      Type.Literal('unknown'),
      Type.Literal('not-sent'),
    ]),
    summary: Short(500),
    amounts: Type.Array(HistoryAmount, { maxItems: 16 }),
    revertReason: Type.Optional(Short(1000)),
    /** what the account paid for gas, from the receipt (absent: sponsored, not settled, or an older entry) */
    fee: Type.Optional(
      Type.Object(
        {
          symbol: Short(16),
          amount: Short(100),
          baseUnits: Type.String({ pattern: '^[0-9]{1,78}$' }),
        },
        { additionalProperties: false },
      ),
    ),
    /** sha-256 of what the plan moves (planFingerprint): a retry of the same plan is recognised */
    fingerprint: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$' })),
    /** what identifies the signed outside execution when no hash is known (SNIP-9) */
    outside: Type.Optional(
      Type.Object(
        {
          nonce: Felt,
          messageHash: Felt,
          executeBefore: Type.Integer({ minimum: 0, maximum: 2 ** 40 }),
        },
        { additionalProperties: false },
      ),
    ),
    /** how the outcome was learned, when not from a receipt */
    note: Type.Optional(Short(300)),
    /**
     * the chain's answers about it contradict each other (a receipt against the account's
     * outside-execution nonce or balances: chain/outcome.ts); while present, how it ended is not
     * known (status unknown); removed once they agree again
     */
    contradiction: Type.Optional(Short(300)),
  },
  { additionalProperties: false },
);
export const HistoryFile = Type.Object(
  { version: Type.Literal(1), entries: Type.Array(HistoryEntry, { maxItems: MAX_ENTRIES }) },
  { additionalProperties: false },
);
