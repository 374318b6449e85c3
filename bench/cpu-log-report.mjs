/**
 * Reads a log of bench/cpu-log.mjs (one or more files) and prints where the CPU went, by test
 * file and, inside a file, by what cost it: the worker's own share (the test code, in-process
 * runs, servers started in the test's process), bin runs by command, the sandbox processes, the
 * tool servers (`mcp`), other Node children. CPU in seconds (user + system).
 *
 *   node bench/cpu-log-report.mjs /tmp/cpu.jsonl [--json]
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const json = args.includes('--json');
const files = args.filter((a) => a !== '--json');
if (files.length === 0) {
  process.stderr.write('usage: node bench/cpu-log-report.mjs LOG… [--json]\n');
  process.exit(2);
}

const lines = files.flatMap((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line)),
);

const seconds = (entry) => (entry.user + entry.system) / 1e6;

/** What a process was, from its argv. */
function kindOf(argv) {
  const [script = '', ...rest] = argv;
  if (/vitest[/\\]dist[/\\]workers|vitest[/\\]dist[/\\].*worker/.test(script)) return 'worker-exit';
  if (/vitest(\.mjs)?$|vitest[/\\]dist[/\\]cli/.test(script)) return 'vitest';
  if (/scripts[/\\]bundle\.mjs$/.test(script)) return 'build';
  if (/dist[/\\]cli[/\\]main\.js$/.test(script)) {
    const words = rest.filter((a) => !a.startsWith('-'));
    const [first = '', second = ''] = words;
    if (
      first === 'sandbox' &&
      ['outbox', 'advance', 'price', 'liquidate', 'remove-staker'].includes(second)
    )
      return `bin sandbox ${second}`;
    if (first === 'sandbox') return 'sandbox';
    if (first === 'mcp') return 'mcp';
    if (first === 'serve') return 'serve';
    return `bin ${first || '(none)'}`;
  }
  return `node ${script.split(/[/\\]/).slice(-2).join('/')}`;
}

const byTag = new Map();
const untagged = new Map();
const add = (map, key, cpu) => {
  const entry = map.get(key) ?? { count: 0, cpu: 0 };
  entry.count += 1;
  entry.cpu += cpu;
  map.set(key, entry);
};
for (const line of lines) {
  const cpu = seconds(line);
  if (line.kind === 'worker-file') {
    const tag = byTag.get(line.tag) ?? new Map();
    byTag.set(line.tag, tag);
    add(tag, 'worker', cpu);
    continue;
  }
  const kind = kindOf(line.argv);
  if (kind === 'worker-exit' || kind === 'vitest' || kind === 'build' || !line.tag) {
    add(untagged, kind, cpu);
    continue;
  }
  const tag = byTag.get(line.tag) ?? new Map();
  byTag.set(line.tag, tag);
  add(tag, kind, cpu);
}

const total = (map) => [...map.values()].reduce((sum, e) => sum + e.cpu, 0);
const rows = [...byTag.entries()]
  .map(([tag, map]) => {
    const bins = [...map.entries()].filter(([k]) => k.startsWith('bin '));
    return {
      file: tag,
      total: total(map),
      worker: map.get('worker')?.cpu ?? 0,
      binRuns: bins.reduce((n, [, e]) => n + e.count, 0),
      bin: bins.reduce((n, [, e]) => n + e.cpu, 0),
      sandbox: map.get('sandbox')?.cpu ?? 0,
      sandboxes: map.get('sandbox')?.count ?? 0,
      mcp: map.get('mcp')?.cpu ?? 0,
      mcps: map.get('mcp')?.count ?? 0,
      other: [...map.entries()]
        .filter(([k]) => !k.startsWith('bin ') && !['worker', 'sandbox', 'mcp'].includes(k))
        .reduce((n, [, e]) => n + e.cpu, 0),
      detail: Object.fromEntries(
        [...map.entries()].map(([k, e]) => [k, { count: e.count, cpu: +e.cpu.toFixed(2) }]),
      ),
    };
  })
  .sort((a, b) => b.total - a.total);

if (json) {
  process.stdout.write(
    `${JSON.stringify({ files: rows, untagged: Object.fromEntries(untagged) }, null, 2)}\n`,
  );
} else {
  const f = (n) => n.toFixed(1).padStart(6);
  process.stdout.write(
    `${'file'.padEnd(36)} ${'total'.padStart(6)} ${'worker'.padStart(6)} ${'bin'.padStart(6)} runs ${'sandbx'.padStart(6)} n ${'mcp'.padStart(6)} n ${'other'.padStart(6)}\n`,
  );
  for (const r of rows)
    process.stdout.write(
      `${r.file.replace(/^test\//, '').padEnd(36)} ${f(r.total)} ${f(r.worker)} ${f(r.bin)} ${String(r.binRuns).padStart(4)} ${f(r.sandbox)} ${r.sandboxes} ${f(r.mcp)} ${String(r.mcps).padStart(2)} ${f(r.other)}\n`,
    );
  const sum = rows.reduce((n, r) => n + r.total, 0);
  process.stdout.write(`${'files, together'.padEnd(36)} ${f(sum)}\n`);
  for (const [kind, e] of untagged)
    process.stdout.write(`${`(${kind})`.padEnd(36)} ${f(e.cpu)} ×${e.count}\n`);
}
