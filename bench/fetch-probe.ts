/**
 * A probe preloaded into a measured process (`node --import <FETCH_PROBE> dist/cli/main.js …`):
 * it wraps fetch and, on exit, prints one `BENCH {…}` line on stderr with
 *  - cpuMs: process.cpuUsage (user + system, all threads), rssKb: peak RSS;
 *  - waitMs: the time with at least one request in flight (until the response headers);
 *  - requests: every request that answered, as `METHOD path [json-rpc method]`, in start order;
 *  - steps: the sequential round trips — the longest chain of answered requests in which each
 *    started after the one before it had answered (told by the order of the events, no clock).
 *    GET /health and GET / (our server's own liveness answers, which reach no upstream) are
 *    left out, as are requests that were abandoned (aborted);
 *  - chainSteps: the same count over the Starknet JSON-RPC requests alone (path `/rpc`: the
 *    sandbox chain's): how many chain rounds follow one another.
 * Used by bench/trade.ts and by test/round-trips.test.ts (docs/execution.md "Round trips").
 */

const SOURCE = `
const original = globalThis.fetch;
let inFlight = 0, since = 0, waited = 0, events = 0;
const done = [];
globalThis.fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  const method = (init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase();
  let rpc = '';
  try { const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined; rpc = Array.isArray(body) ? body.map((b) => b.method).join('+') : (body?.method ?? ''); } catch {}
  const entry = { path: url.pathname, what: (method + ' ' + url.pathname + ' ' + rpc).trim(), liveness: method === 'GET' && (url.pathname === '/health' || url.pathname === '/'), start: ++events, end: 0 };
  if (inFlight++ === 0) since = performance.now();
  try {
    const response = await original(input, init);
    entry.end = ++events;
    done.push(entry);
    return response;
  } finally { if (--inFlight === 0) waited += performance.now() - since; }
};
process.on('exit', () => {
  const counted = done.filter((r) => !r.liveness).sort((a, b) => a.start - b.start);
  const stepsOf = (rs) => {
    const depth = new Map();
    for (const r of rs) depth.set(r, 1 + Math.max(0, ...rs.filter((q) => q.end < r.start).map((q) => depth.get(q))));
    return Math.max(0, ...depth.values());
  };
  const chain = (r) => r.path === '/rpc';
  const cpu = process.cpuUsage();
  const report = { cpuMs: (cpu.user + cpu.system) / 1000, waitMs: waited, rssKb: process.resourceUsage().maxRSS, steps: stepsOf(counted), chainSteps: stepsOf(counted.filter(chain)), requests: done.sort((a, b) => a.start - b.start).map((r) => r.what) };
  process.stderr.write('BENCH ' + JSON.stringify(report) + '\\n');
});
`;

export const FETCH_PROBE = `data:text/javascript,${encodeURIComponent(SOURCE)}`;

export interface ProbeReport {
  cpuMs: number;
  waitMs: number;
  rssKb: number;
  /** sequential round trips that reach an upstream (see above) */
  steps: number;
  /** sequential round trips to the Starknet JSON-RPC (`/rpc`) alone */
  chainSteps: number;
  requests: string[];
}

/** The probe's line from a process's stderr. */
export function readProbe(stderr: string): ProbeReport {
  const line = stderr.split('\n').find((l) => l.startsWith('BENCH '));
  if (line === undefined) throw new Error('the fetch probe printed nothing');
  return JSON.parse(line.slice(6)) as ProbeReport;
}
