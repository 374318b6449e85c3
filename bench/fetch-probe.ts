/**
 * A probe preloaded into a measured process (`node --import <FETCH_PROBE> dist/cli/main.js …`):
 * it wraps fetch and node:http's request (the client's transport: cli/clients/transport.ts) and,
 * on exit, prints one `BENCH {…}` line on stderr with
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
const http = process.getBuiltinModule('node:http'); // not an ES import: that would load undici (cli/clients/transport.ts)
let inFlight = 0, since = 0, waited = 0, events = 0;
const done = [];
const rpcOf = (body) => { try { const doc = typeof body === 'string' ? JSON.parse(body) : undefined; return Array.isArray(doc) ? doc.map((b) => b.method).join('+') : (doc?.method ?? ''); } catch { return ''; } };
const track = (url, method) => {
  const entry = { path: url.pathname, what: method + ' ' + url.pathname, liveness: method === 'GET' && (url.pathname === '/health' || url.pathname === '/'), start: ++events, end: 0 };
  if (inFlight++ === 0) since = performance.now();
  let open = true;
  const close = () => { if (open) { open = false; if (--inFlight === 0) waited += performance.now() - since; } };
  return {
    body: (body) => { entry.what = (method + ' ' + url.pathname + ' ' + rpcOf(body)).trim(); },
    answered: () => { if (!open) return; entry.end = ++events; done.push(entry); close(); },
    abandoned: close,
  };
};
const original = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  const method = (init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase();
  const t = track(url, method);
  t.body(init?.body);
  try {
    const response = await original(input, init);
    t.answered();
    return response;
  } finally { t.abandoned(); }
};
// the client's transport (cli/clients/transport.ts) calls http.request(url: URL, options) and
// sends its whole body with end(): answered at the response's headers, as fetch resolves
const request = http.request;
http.request = function (url, options, callback) {
  const req = request.call(this, url, options, callback);
  if (url instanceof URL) {
    const t = track(url, (options?.method ?? 'GET').toUpperCase());
    const end = req.end;
    req.end = function (body, ...rest) { t.body(body); return end.call(this, body, ...rest); };
    req.once('response', t.answered);
    req.once('close', t.abandoned);
    req.once('error', t.abandoned);
  }
  return req;
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
