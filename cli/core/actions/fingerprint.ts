/**
 * The retry guard (docs/architecture.md "History"): a plan's fingerprint, derived from its legs'
 * effects, and the refusal of a plan whose same-fingerprint transaction may still execute.
 */
import { feltHex } from '../../../shared/felt.js';
import { createHash } from 'node:crypto';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { CallOptions } from '../call.js';
import { entryKey, type HistoryEntry, UNRESOLVED } from '../history.js';
import {
  askable,
  entryChain,
  RECHECK_SETTLED_MS,
  readerLookup,
  recentlySettled,
  reconcileHistory,
} from '../reconcile.js';
import { type Effects, legEffects, legIdentities } from './legs/index.js';
import type { ActionContext } from './pipeline.js';
import type { ActionPlan } from './plan.js';

/**
 * What a plan moves, as a sha-256 (hex): the account, the chain, and each leg's type, identity
 * and effects — what leaves (token, exact amount, recipient), the tokens that arrive (not the
 * quoted minimum, which moves with the market) and the positions changed — never the quote or
 * the fee. An outflow that is a bound on "all" of a position (repay all, close with a debt: the
 * debt plus a margin) counts as 'all', not the bound, which grows with interest. So a script that
 * runs the same `send` or `trade` again gets the same fingerprint (and `send` and a one-transfer
 * `batch` share theirs), while a stake and an exit of the same amount
 * differ (their leg types and position changes do).
 */
export function planFingerprint(plan: ActionPlan, chain: string): string {
  const hex = (value: string): string => feltHex(BigInt(value));
  const effects = legEffects(plan.legs, plan);
  const what = {
    account: hex(plan.account),
    chain,
    legs: legIdentities(plan.legs).map((identity, i) => {
      const e = effects[i] as Effects;
      return {
        identity: identity.map((x) => (/^0x[0-9a-fA-F]+$/.test(x) ? hex(x) : x)),
        // a bound on "all" (repay all, close) moves with interest: 'all' is the request
        out: e.out.map((o) => [
          hex(o.token.address),
          o.all === true ? 'all' : o.amount.toString(),
          o.to ? hex(o.to) : '',
        ]),
        in: e.in.map((x) => [hex(x.token.address), x.basis, x.to ? hex(x.to) : '']),
        // a claim's amount is whatever has accrued by then: the pool identifies it
        positions: e.positions.map((p) => [
          p.kind,
          hex(p.pool),
          p.change,
          p.change === 'claim' ? '' : p.amount.toString(),
        ]),
      };
    }),
  };
  return createHash('sha256').update(JSON.stringify(what)).digest('hex');
}

/**
 * A plan whose transaction may already be on its way is never signed again, across processes
 * too: the account's unresolved entries on this chain are first asked of the chain (bounded);
 * one with the same fingerprint that is still unresolved refuses this run (ALREADY_SUBMITTED).
 * So does a same-fingerprint entry recorded as reverted in the last 24 h that the chain now
 * contradicts or shows executed (a node may have lied about its receipt: chain/outcome.ts).
 */
export async function refuseUnsettledRetry(
  ctx: ActionContext,
  chain: string,
  fingerprint: string,
  call: CallOptions,
): Promise<void> {
  if (ctx.history === undefined || !askable(chain)) return;
  const account = BigInt(ctx.account.address);
  const mine = (e: HistoryEntry): boolean =>
    BigInt(e.account) === account && entryChain(e) === chain;
  const { entries } = await ctx.history.list();
  const open = entries.filter((e) => mine(e) && UNRESOLVED.has(e.status));
  const nowMs = (ctx.now ?? Date.now)();
  const revertedLately = entries.filter(
    (e) =>
      mine(e) &&
      e.fingerprint === fingerprint &&
      e.status === 'reverted' &&
      recentlySettled(e, nowMs, RECHECK_SETTLED_MS),
  );
  if (!open.some((e) => e.fingerprint === fingerprint) && revertedLately.length === 0) return;
  const lookup = await readerLookup(ctx.account);
  // the same plan first: it decides whether this run may sign
  const sameOpen = open.filter((e) => e.fingerprint === fingerprint);
  const ordered = [
    ...sameOpen,
    ...revertedLately,
    ...open.filter((e) => e.fingerprint !== fingerprint),
  ];
  const changed = await reconcileHistory(ctx.history, ordered, {
    lookupFor: () => lookup,
    signal: call.signal,
    now: ctx.now,
    recheckSettledMs: RECHECK_SETTLED_MS,
  });
  const settled = new Map(changed.map((c) => [entryKey(c), c]));
  const same = [...sameOpen, ...revertedLately].map((e) => settled.get(entryKey(e)) ?? e);
  // still unresolved: it may yet execute; just found executed: this run is the blind retry of it
  const blocking =
    same.find((e) => UNRESOLVED.has(e.status)) ?? same.find((e) => e.status === 'succeeded');
  if (blocking === undefined) return;
  const deadline =
    blocking.outside === undefined
      ? ''
      : ` (it can execute until ${new Date(blocking.outside.executeBefore * 1000).toISOString()})`;
  const as = blocking.hash === undefined ? '' : ` as ${blocking.hash}`;
  const contradicted =
    blocking.contradiction === undefined
      ? ''
      : ` (the chain's answers contradict each other: ${blocking.contradiction})`;
  const what =
    blocking.status === 'succeeded'
      ? `the same plan, sent at ${blocking.time}${as}, has been executed (the chain says so now)`
      : `the same plan was sent at ${blocking.time}${as} and how it ended is not known yet${deadline}${contradicted}`;
  throw new AppError(
    ErrorCode.ALREADY_SUBMITTED,
    `${what}: not sending it twice; run it again only if you mean a second payment`,
    {
      details: {
        // the history asks the chain how it ended: each face words where (cli/core/remedy.ts)
        remedy: ['history'],
        transactionHash: blocking.hash ?? null,
        state: blocking.status,
        time: blocking.time,
        ...(blocking.contradiction === undefined ? {} : { contradiction: blocking.contradiction }),
        ...(blocking.outside === undefined
          ? {}
          : { executeBefore: blocking.outside.executeBefore }),
      },
    },
  );
}
