/**
 * What a headless command loads and keeps (issue 35; docs/benchmarks.md "Start-up"): the built
 * bin, as a user runs it, against a real server on loopback.
 * - No fetch stack: `status --json` makes its requests through the client's transport
 *   (cli/clients/transport.ts) and never loads undici (nor does `--version`); a probe preloaded
 *   into the process reports Node's own list of loaded built-ins at exit.
 * - No child-process machinery when no sandbox is started: child_process and readline are loaded
 *   only to start one (cli/core/endpoints.ts).
 * - No node:crypto for a command that writes no file (shared/fs.ts loads it on a first write or
 *   lock), and node:util required rather than imported (cli/ui/mode.ts, cli/headless/args.ts):
 *   its ES facade reads every export, util.diff's modules among them; so is node:fs (shared/fs.ts
 *   `nodeFs`), whose facade would load fs/promises, readline and the REPL's history.
 * - Only the bundle's chunks that read `require` make one at load (scripts/bundle.mjs).
 * - TypeBox's interpreter only: `status --json` checks each answer and file once, and TypeBox's
 *   compiler (with typebox/value behind it, most of TypeBox's code) is loaded only for a schema
 *   checked many times (cli/clients/schema-check.ts); the schemas' builders are imported by name,
 *   so the bundle leaves the rest out.
 * - The bin resolves its own chunks (cli/bin.ts): Node's resolver (a stat, the real path and a
 *   package.json look-up per chunk) never sees one; a preloaded resolve hook, which runs after
 *   the bin's, sees no chunk specifier while every chunk is still loaded.
 * - The compile cache is written under the user's cache folder (cli/bin.ts), not Node's default
 *   under the shared temporary folder.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, tempHome } from './helpers/home.js';
import { BIN, runBinTracingModules, spawnBin } from './helpers/process.js';

const PROBE = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(process.moduleLoadList.filter((m) => /undici|webstreams|^NativeModule (child_process|readline|crypto|internal\\/util\\/diff|internal\\/fs\\/promises)$/.test(m))) + '\\n'));",
)}`;

let server: Server;
let url: string;
let requests = 0;

beforeAll(async () => {
  // answers everything with a small JSON document: status reports what it makes of it
  server = createServer((request, response) => {
    requests += 1;
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ status: 'ok', message: 'up' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function loadedBy(
  args: string[],
  extra: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; loaded: string[] }> {
  const home = tempHome();
  try {
    const spawned = spawnBin(
      args,
      cleanEnv({
        FINANCE_TUI_HOME: home.dir,
        FINANCE_TUI_SERVER_URL: url,
        FINANCE_TUI_AGGREGATOR_URL: url,
        ...extra,
      }),
      undefined,
      { nodeArgs: ['--import', PROBE] },
    );
    const { code } = await spawned.exited;
    const line = spawned
      .stderr()
      .split('\n')
      .find((l) => l.startsWith('LOADED '));
    expect(line, spawned.stderr()).toBeDefined();
    return { code, stdout: spawned.stdout(), loaded: JSON.parse(line!.slice(7)) as string[] };
  } finally {
    home.cleanup();
  }
}

describe('a headless command loads no fetch stack', () => {
  it('status --json asks both services over node:http, without undici, web streams, child processes, node:crypto, fs/promises or the util facade', async () => {
    const before = requests;
    const { code, stdout, loaded } = await loadedBy(['status', '--json']);
    expect(code).toBe(0);
    // the answers are not the services' shapes: what matters here is that they were asked
    expect(JSON.parse(stdout)).toMatchObject({ aggregator: { url }, server: { url } });
    expect(requests - before).toBeGreaterThanOrEqual(2);
    expect(loaded).toEqual([]);
  });

  it("status --json loads TypeBox's interpreter, not its compiler", async () => {
    const home = tempHome();
    try {
      const { code, modules } = await runBinTracingModules(
        ['status', '--json'],
        cleanEnv({
          FINANCE_TUI_HOME: home.dir,
          FINANCE_TUI_SERVER_URL: url,
          FINANCE_TUI_AGGREGATOR_URL: url,
        }),
      );
      expect(code).toBe(0);
      const typebox = modules.filter((m) => m.includes('node_modules/typebox/'));
      // the settings file and the answers were checked (the trace names TypeBox by part)
      expect(typebox).toContain('bundled:node_modules/typebox/schema/');
      expect(typebox.filter((m) => /typebox\/(compile|value)\b/.test(m))).toEqual([]);
    } finally {
      home.cleanup();
    }
  });

  it('--version loads neither', async () => {
    const { code, stdout, loaded } = await loadedBy(['--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^[0-9]+\.[0-9]+\.[0-9]+/);
    expect(loaded).toEqual([]);
  });
});

const RESOLVE_PROBE = `data:text/javascript,${encodeURIComponent(
  "import { registerHooks } from 'node:module'; const seen = { resolved: 0, loaded: 0 }; registerHooks({ resolve(s, c, next) { if (/chunk-/.test(s)) seen.resolved += 1; return next(s, c); }, load(u, c, next) { if (/\\/chunk-[A-Z0-9]+\\.js$/.test(u)) seen.loaded += 1; return next(u, c); } }); process.on('exit', () => process.stderr.write('CHUNKS ' + JSON.stringify(seen) + '\\n'));",
)}`;

describe('the bundle', () => {
  it("resolves its own chunks: Node's resolver is asked for none of them", async () => {
    const home = tempHome();
    try {
      const spawned = spawnBin(
        ['status', '--json'],
        cleanEnv({
          FINANCE_TUI_HOME: home.dir,
          FINANCE_TUI_SERVER_URL: url,
          FINANCE_TUI_AGGREGATOR_URL: url,
        }),
        undefined,
        { nodeArgs: ['--import', RESOLVE_PROBE] },
      );
      const { code } = await spawned.exited;
      expect(code).toBe(0);
      const line = spawned
        .stderr()
        .split('\n')
        .find((l) => l.startsWith('CHUNKS '));
      expect(line, spawned.stderr()).toBeDefined();
      const seen = JSON.parse(line!.slice(7)) as { resolved: number; loaded: number };
      expect(seen.loaded).toBeGreaterThan(10);
      expect(seen.resolved).toBe(0);
    } finally {
      home.cleanup();
    }
  });

  it("makes a chunk's require (createRequire at load) only in the chunks that read it", () => {
    const dir = dirname(BIN);
    const chunks = readdirSync(dir).filter((file) => file.endsWith('.js'));
    // the banner's own spelling (a module of ours may make its require itself: transport.ts)
    const banner = '__ftModule.createRequire(import.meta.url)';
    const withBanner = chunks.filter((file) =>
      readFileSync(join(dir, file), 'utf8').includes(banner),
    );
    // esbuild's runtime chunk (its __require) and a few CommonJS packages' chunks: not all ~200
    expect(withBanner.length).toBeGreaterThan(0);
    expect(withBanner.length).toBeLessThan(chunks.length / 10);
    for (const file of withBanner) {
      const text = readFileSync(join(dir, file), 'utf8').replace(banner, '');
      expect(text, file).toMatch(/\brequire\b/);
    }
  });
});

describe('the compile cache', () => {
  it("is kept in the user's cache folder", async () => {
    const cache = mkdtempSync(join(tmpdir(), 'finance-tui-cache-'));
    try {
      const { code } = await loadedBy(['--version'], {
        XDG_CACHE_HOME: cache,
        NODE_COMPILE_CACHE: undefined,
        NODE_DISABLE_COMPILE_CACHE: undefined,
      });
      expect(code).toBe(0);
      const dir = join(cache, 'finance-tui', 'node-compile');
      expect(existsSync(dir)).toBe(true);
      expect(readdirSync(dir).length).toBeGreaterThan(0);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
