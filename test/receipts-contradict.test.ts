/**
 * Receipts the chain contradicts (issue 33 item 4; docs/decisions.md "A receipt is checked
 * against the account"), through the built bin against a real sandbox behind a lying node
 * (helpers/lying-node.ts):
 * - a success reported as REVERTED with its events stripped: exit 3 (how it ended is not known),
 *   a retry of the same plan refused, paid once; history marks the entry, and corrects it once
 *   the node is honest again;
 * - a revert reported as SUCCEEDED: never exit 0; marked, then corrected to reverted, after
 *   which the same plan may be sent (it moved nothing);
 * - an entry settled honestly is asked again by `history` within 24 h: a lie then marks it;
 * - the tool server says the same: the outcome is not known, a second execution is refused, and
 *   get_history lists the entry with its contradiction.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';
import { type LyingNode, startLyingNode } from './helpers/lying-node.js';
import { callTool, errorOf, executeCaps, planAndExecute, toolServerSetup } from './helpers/mcp.js';

const HASH = /^0x[0-9a-f]{64}$/;

interface Listed {
  hash?: string;
  status: string;
  contradiction?: string;
  note?: string;
}

describe('receipts that contradict the account (issue 33 item 4)', () => {
  let users: TwoUsers;
  let node: LyingNode;
  const { aliceThrough, close, connect, usdcOf } = toolServerSetup(() => users);

  beforeAll(async () => {
    users = await startTwoUsers();
    node = await startLyingNode(users.urls.rpcUrl);
  }, 120_000);
  afterAll(async () => {
    await close();
    await node?.close();
    await users?.close();
  });

  /** A data folder signed in as alice whose chain reads go through the lying node. */
  const homeThroughNode = (): string => aliceThrough(node.url);

  const listed = async (home: string, hash: string): Promise<Listed | undefined> => {
    const r = await cliInProcess(home, ['history', '--json']);
    expect(r.code, r.stderr).toBe(0);
    return (r.doc.entries as Listed[]).find((e) => e.hash === hash);
  };

  const send = (home: string, amount: string) =>
    cliInProcess(home, ['send', amount, 'USDC', users.bobAddress, '--yes', '--sandbox', '--json']);

  it('a success reported as REVERTED, events stripped: exit 3, a retry refused, paid once; history marks it, then corrects it', async () => {
    const home = homeThroughNode();
    try {
      node.mode = 'revert-successes';
      const bobBefore = await usdcOf(users.bobHome);
      const first = await send(home, '0.21');
      expect(first.code, first.stdout + first.stderr).toBe(3);
      expect(first.doc.error?.code).toBe('TRANSACTION_PENDING');
      expect(first.doc.error?.message).toMatch(/contradict each other/);
      expect(first.doc.error?.details?.contradiction).toMatch(/REVERTED, but .* nonce is used/);
      const hash = first.doc.error?.details?.transactionHash as string;
      expect(hash).toMatch(HASH);
      expect(node.lies).toBeGreaterThan(0);
      expect(await usdcOf(users.bobHome)).toBe(bobBefore + 210_000n);

      // the retry of the same plan is refused: nothing is paid twice
      const again = await send(home, '0.21');
      expect(again.code, again.stdout + again.stderr).toBe(1);
      expect(again.doc.error?.code).toBe('ALREADY_SUBMITTED');
      expect(again.doc.error?.details?.transactionHash).toBe(hash);
      expect(await usdcOf(users.bobHome)).toBe(bobBefore + 210_000n);

      // history, asking the same lying node, shows the contradiction, in its human form too
      expect(await listed(home, hash)).toMatchObject({
        status: 'unknown',
        contradiction: expect.stringMatching(/nonce is used/),
      });
      const human = await cliInProcess(home, ['history']);
      expect(human.stdout).toMatch(/CONTRADICTED: the chain's answers contradict each other/);

      // honest again: the corrected outcome, the mark gone
      node.mode = 'honest';
      const corrected = await listed(home, hash);
      expect(corrected).toMatchObject({ status: 'succeeded' });
      expect(corrected?.contradiction).toBeUndefined();
      expect(corrected?.note).toMatch(/agree now/);
    } finally {
      node.mode = 'honest';
    }
  }, 180_000);

  it('a revert reported as SUCCEEDED: exit 3, never 0; marked, then corrected to reverted; the plan may then be sent', async () => {
    const home = homeThroughNode();
    try {
      node.mode = 'succeed-reverts';
      const bobBefore = await usdcOf(users.bobHome);
      const forced = await fetch(`${users.urls.chainUrl}/sandbox/chain/revert-next`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ count: 1, reason: 'sandbox: forced revert' }),
      });
      expect(forced.status).toBe(200);
      const first = await send(home, '0.22');
      expect(first.code, first.stdout + first.stderr).toBe(3);
      expect(first.doc.error?.code).toBe('TRANSACTION_PENDING');
      expect(first.doc.error?.details?.contradiction).toMatch(/SUCCEEDED, but .* still unused/);
      const hash = first.doc.error?.details?.transactionHash as string;
      expect(await usdcOf(users.bobHome)).toBe(bobBefore);

      const again = await send(home, '0.22');
      expect(again.doc.error?.code).toBe('ALREADY_SUBMITTED');
      expect(await listed(home, hash)).toMatchObject({
        status: 'unknown',
        contradiction: expect.stringMatching(/still unused/),
      });

      node.mode = 'honest';
      expect(await listed(home, hash)).toMatchObject({ status: 'reverted' });
      // it moved nothing: the same plan is sent now, once
      const retry = await send(home, '0.22');
      expect(retry.code, retry.stdout + retry.stderr).toBe(0);
      expect(await usdcOf(users.bobHome)).toBe(bobBefore + 220_000n);
    } finally {
      node.mode = 'honest';
    }
  }, 180_000);

  it('the tool server: a success reported as REVERTED is not known (never "nothing changed"); the same plan again is refused; get_history shows the contradiction', async () => {
    const home = homeThroughNode();
    const client = await connect(home, executeCaps('1000', users.bobAddress));
    try {
      node.mode = 'revert-successes';
      const bobBefore = await usdcOf(users.bobHome);
      const args = { amount: '0.24', token: 'USDC', to: users.bobAddress };
      const first = errorOf(await planAndExecute(client, 'plan_send', args));
      expect(first.code).toBe('TRANSACTION_PENDING');
      expect(first.message).toMatch(/contradict each other/);
      expect(first.message).not.toMatch(/nothing changed/);
      const hash = first.details?.transactionHash as string;
      expect(hash).toMatch(HASH);
      const again = errorOf(await planAndExecute(client, 'plan_send', args));
      expect(again.code).toBe('ALREADY_SUBMITTED');
      expect(await usdcOf(users.bobHome)).toBe(bobBefore + 240_000n);
      const history = await callTool(client, 'get_history', {});
      const entries = (history.structuredContent as { entries: Listed[] }).entries;
      expect(entries.find((e) => e.hash === hash)).toMatchObject({
        status: 'unknown',
        contradiction: expect.stringMatching(/nonce is used/),
      });
    } finally {
      node.mode = 'honest';
    }
  }, 180_000);

  it('history asks again an entry settled in the last 24 h: a lie now marks it, the truth restores it', async () => {
    const home = homeThroughNode();
    try {
      node.mode = 'honest';
      const sent = await send(home, '0.23');
      expect(sent.code, sent.stdout + sent.stderr).toBe(0);
      const hash = (sent.doc.transaction as { hash: string }).hash;
      expect(await listed(home, hash)).toMatchObject({ status: 'succeeded' });
      node.mode = 'revert-successes';
      expect(await listed(home, hash)).toMatchObject({
        status: 'unknown',
        contradiction: expect.stringMatching(/REVERTED, but .* nonce is used/),
      });
      node.mode = 'honest';
      expect(await listed(home, hash)).toMatchObject({ status: 'succeeded' });
    } finally {
      node.mode = 'honest';
    }
  }, 180_000);
});
