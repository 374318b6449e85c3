#!/usr/bin/env node
/**
 * The published bin's entry (dist/cli/main.js is this file, bundled: scripts/bundle.mjs). It
 * turns on Node's compile cache before any of the program is compiled, then loads the program
 * (main.ts). An ES module's static imports are all compiled before its first line runs, so the
 * cache has to be enabled by a file that imports next to nothing: enabled from main.ts, it would
 * only have served what main.ts loads later.
 *
 * The cache lives in the user's own cache folder (`<platform cache>/finance-tui/node-compile`,
 * env-paths' cache path: `$XDG_CACHE_HOME` or `~/.cache` on Linux), not Node's default under the
 * shared temporary folder, where another user could plant code for us to run
 * (docs/decisions.md "Compile cache"). NODE_COMPILE_CACHE chooses another folder and
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off, as Node documents; a folder that cannot be written
 * only costs the speed.
 */
import { enableCompileCache, registerHooks } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** package.json's version, written in by the bundle (scripts/bundle.mjs); not defined unbundled. */
declare const __FINANCE_TUI_VERSION__: string | undefined;

/** env-paths' cache folder for `name` (its rules, without loading it before the cache is on). */
function cacheDir(name: string): string {
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Caches', name);
  if (process.platform === 'win32')
    return join(process.env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), name, 'Cache');
  return join(process.env.XDG_CACHE_HOME || join(home, '.cache'), name);
}

// The program uses no WebSocket, and the global one is Node's lazy getter over undici (with web
// streams): starknet.js reads `typeof WebSocket` when it loads, which alone would load all of it
// (~25 ms of CPU; docs/benchmarks.md "A trade's CPU"). The bin runs as with Node's own
// --no-experimental-websocket (docs/decisions.md "The client's HTTP without fetch").
delete (globalThis as { WebSocket?: unknown }).WebSocket;

try {
  // a no-op when NODE_COMPILE_CACHE already enabled it (or NODE_DISABLE_COMPILE_CACHE is set)
  enableCompileCache?.(join(cacheDir('finance-tui'), 'node-compile'));
} catch {
  // no cache: the program runs the same, only slower to start
}
// The bundle's chunks (scripts/bundle.mjs: `./chunk-<hash>.js`, beside this file) are resolved
// here rather than by Node's resolver, which for each of them (a trade loads ~90) stats the file,
// follows its real path and looks for the package.json above it to learn that a .js file is an
// ES module: ~30 % of a trade's module-loading CPU (docs/decisions.md "The bin resolves its own chunks"). A chunk's URL
// is its importer's folder and its name, the format is the one esbuild wrote; anything else
// (Node's built-ins, the packages left out of the bundle) goes to Node's resolver. Node reads and
// compiles the file as it would (the compile cache serves it alike). Skipped where Node has no
// registerHooks (before 22.15): only slower. The URL is joined as text, not parsed (a WHATWG URL
// per import was ~3 ms of a trade: docs/benchmarks.md "Issue 35, seventh round"): the name is
// letters, digits and `.js`, and an importer under this folder is a file: URL without a query,
// so its folder and the name are the URL `new URL(specifier, parentURL)` gives.
const CHUNK = /^\.\/chunk-[A-Z0-9]+\.js$/;
const here = new URL('./', import.meta.url).href;
registerHooks?.({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL;
    if (CHUNK.test(specifier) && parent?.startsWith(here) === true && !/[?#]/.test(parent))
      return {
        url: `${parent.slice(0, parent.lastIndexOf('/') + 1)}${specifier.slice(2)}`,
        format: 'module',
        shortCircuit: true,
      };
    return nextResolve(specifier, context);
  },
});
// `--version` (or `-v`) alone is answered here, without loading the command table and what it
// imports (~10 ms, most of what `--version` took beyond Node's own start; docs/decisions.md
// "Built-ins required, TypeBox by name"). The published bundle carries package.json's version as a
// constant (scripts/bundle.mjs `define`), so it loads nothing more — not even the version module,
// whose chunks and file read were half of what was left (docs/decisions.md "The version is written
// into the bundle"). Unbundled (tsc's dist/, tsx) the version module reads package.json. The answer is
// the version module's `versionLine`, run.ts's: with any other argument (`--version --json`) the
// program answers as always.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  if (typeof __FINANCE_TUI_VERSION__ === 'string')
    process.stdout.write(`${__FINANCE_TUI_VERSION__}\n`);
  else {
    const { versionLine } = await import('../shared/version.js');
    process.stdout.write(versionLine());
  }
} else await import('./main.js');
