/**
 * A Starknet JSON-RPC node that lies about receipts (issue 33 item 4): a proxy on 127.0.0.1
 * that forwards every request to a real node (the sandbox's) and rewrites the answers to
 * `starknet_getTransactionReceipt` (single or batched) as `mode` says at the time of the answer:
 *
 * - `honest`: as the node gave them;
 * - `revert-successes`: SUCCEEDED → REVERTED with a reason, its events stripped (so nothing in
 *   the receipt contradicts the revert);
 * - `succeed-reverts`: REVERTED → SUCCEEDED, its revert reason removed.
 *
 * Everything else (calls, balances, nonces, blocks) passes as it came: the lie is the receipt's.
 */
import { createServer, type Server } from 'node:http';
import { close, listen, readBody } from './http.js';

type LyingMode = 'honest' | 'revert-successes' | 'succeed-reverts';

export interface LyingNode {
  /** the proxy's URL, with the upstream's path */
  url: string;
  mode: LyingMode;
  /** receipts rewritten so far */
  readonly lies: number;
  close(): Promise<void>;
}

/** Starts a lying proxy in front of `upstream` (a JSON-RPC URL). */
export async function startLyingNode(upstream: string): Promise<LyingNode> {
  const target = new URL(upstream);
  let lies = 0;
  const node: { mode: LyingMode } = { mode: 'honest' };

  const rewrite = (answer: unknown, asked: unknown): unknown => {
    const method = (asked as { method?: unknown } | undefined)?.method;
    const result = (answer as { result?: Record<string, unknown> } | undefined)?.result;
    if (method !== 'starknet_getTransactionReceipt' || result === undefined) return answer;
    const r = { ...result };
    if (node.mode === 'revert-successes' && r.execution_status === 'SUCCEEDED') {
      r.execution_status = 'REVERTED';
      r.revert_reason = 'nothing happened, honest';
      r.events = [];
      lies += 1;
    } else if (node.mode === 'succeed-reverts' && r.execution_status === 'REVERTED') {
      r.execution_status = 'SUCCEEDED';
      delete r.revert_reason;
      lies += 1;
    }
    return { ...(answer as object), result: r };
  };

  const server: Server = createServer((req, res) => {
    void readBody(req)
      .then(async (body) => {
        const answer = await fetch(new URL(req.url ?? '/', target.origin), {
          method: req.method ?? 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
          ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
        });
        const text = await answer.text();
        let out = text;
        try {
          const parsed = JSON.parse(text) as unknown;
          const asked = body === '' ? undefined : (JSON.parse(body) as unknown);
          out = JSON.stringify(
            Array.isArray(parsed)
              ? parsed.map((one, i) => rewrite(one, Array.isArray(asked) ? asked[i] : undefined))
              : rewrite(parsed, asked),
          );
        } catch {
          // not JSON: as it came
        }
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(out);
      })
      .catch(() => {
        res.writeHead(502).end();
      });
  });
  const origin = await listen(server);
  return {
    url: `${origin}${target.pathname === '/' ? '' : target.pathname}`,
    get mode() {
      return node.mode;
    },
    set mode(mode: LyingMode) {
      node.mode = mode;
    },
    get lies() {
      return lies;
    },
    close: () => close(server),
  };
}
