/**
 * The published bin as an esbuild bundle (start-up speed: one file per lazy part instead of
 * hundreds of modules). Runs after `tsc` (npm run build), over its output folder: dist/cli/main.js
 * becomes the bundle's entry (cli/bin.ts, which turns the compile cache on and loads main.ts),
 * with one chunk per dynamic import beside it, so `import.meta.url` keeps pointing into dist/cli/.
 * The server-side packages stay external (loaded from node_modules: long-running commands, where
 * start-up does not matter, and packages that locate files at run time). starknet.js is bundled
 * (the money commands load it, and its modules resolved one by one from node_modules were part of
 * a trade's CPU: docs/benchmarks.md "A trade's CPU"). React is bundled in its production build.
 * react-devtools-core, which Ink imports only when DEV is set, is stubbed, and Yoga's wasm loader
 * skips fetch() (see below).
 *
 * dist/bundle-meta.json maps every output file to the packages inside it (TypeBox by part): the module-trace
 * tests use it to tell which packages a command loaded.
 *
 * `--outdir=<dir> --entry=<name>:<source>…` builds the same bundle elsewhere with more entries
 * (no bundle-meta.json): the process tests' in-process build (test/global-setup.ts), whose extra
 * entries export `run` and what the tests reset between runs (docs/decisions.md "Bin runs
 * in-process where the result is the subject"). The published build takes no argument.
 */
import { build } from 'esbuild';
import { existsSync, readFileSync, rmSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { assertAcyclic, chunkImports, eagerFunctions } from './eager-functions.mjs';
import {
  knownSelectors,
  lazyPedersenTables,
  standaloneChecks,
  standaloneHistoryCheck,
  stringWidthNarrowFastPath,
} from './bundle-plugins.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const option = (name) => process.argv.slice(2).filter((arg) => arg.startsWith(`--${name}=`));
const [outdirArg] = option('outdir');
const published = outdirArg === undefined;
const outdir = published ? `${root}dist/cli` : `${root}${outdirArg.slice('--outdir='.length)}`;
const extraEntries = Object.fromEntries(
  option('entry').map((arg) => arg.slice('--entry='.length).split(':')),
);

if (existsSync(outdir))
  for (const file of readdirSync(outdir))
    if (file.startsWith('chunk-')) rmSync(`${outdir}/${file}`);

const stubDevtools = {
  name: 'stub-react-devtools-core',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({
      path: 'react-devtools-core',
      namespace: 'stub',
    }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
      contents: 'export default { initialize() {}, connectToDevTools() {} };',
      loader: 'js',
    }));
  },
};

/**
 * Yoga (Ink's layout engine) ships its wasm as a base64 data: URL and, where `fetch` exists,
 * loads it through fetch(): in Node that loads undici, zlib, crypto and TLS and percent-decodes
 * the URL — about half of the TUI's time to its first frame. Its own synchronous fallback
 * (atob into bytes) does the same job without them, so the loader is pointed at it. If Yoga
 * changes the loader, the build fails here rather than silently getting slower.
 */
const YOGA_FETCH = '"function"!=typeof fetch?Promise.resolve()';
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onLoad(
      { filter: /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ },
      async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(YOGA_FETCH))
          throw new Error(
            `${args.path}: the wasm loader changed; update yogaWithoutFetch in scripts/bundle.mjs`,
          );
        return { contents: source.replace(YOGA_FETCH, 'true?Promise.resolve()'), loader: 'js' };
      },
    );
  },
};

const REQUIRE_BANNER =
  "import * as __ftModule from 'node:module'; const require = __ftModule.createRequire(import.meta.url);";

const result = await build({
  absWorkingDir: root,
  // the entry is cli/bin.ts (it turns the compile cache on, then imports main.ts as a chunk)
  entryPoints: { main: 'cli/bin.ts', ...extraEntries },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  chunkNames: 'chunk-[hash]',
  // CommonJS dependencies call require() for Node built-ins (through esbuild's __require, which
  // reads its own chunk's `require`). The compile cache is turned on by the entry itself
  // (cli/bin.ts: in the user's cache folder, before the program is compiled).
  banner: { js: REQUIRE_BANNER },
  external: ['fastify', 'fastify-plugin', '@fastify/*', 'ioredis', 'jose', 'pino', 'pino-*'],
  // package.json's version as a constant: `--version` answers from the entry without loading a
  // chunk or reading a file (cli/bin.ts, shared/version.ts; docs/decisions.md "The version is
  // written into the bundle")
  define: {
    'process.env.NODE_ENV': '"production"',
    __FINANCE_TUI_VERSION__: JSON.stringify(
      JSON.parse(readFileSync(`${root}package.json`, 'utf8')).version,
    ),
  },
  jsx: 'automatic',
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  metafile: true,
  plugins: [
    stubDevtools,
    yogaWithoutFetch,
    lazyPedersenTables,
    knownSelectors,
    standaloneHistoryCheck,
    standaloneChecks,
    stringWidthNarrowFastPath,
  ],
  logLevel: 'warning',
});

// One pass over the output, each file read and written once:
// - the banner is kept only where `require` is read: esbuild's runtime chunk (its __require) and
//   any chunk that names it itself. Every other chunk would run createRequire and build its
//   import.meta at load for nothing: a trade loads ~85 chunks (docs/benchmarks.md "Issue 35");
// - every chunk's functions are compiled with the chunk, so the compile cache keeps them
//   (scripts/eager-functions.mjs). Not the entry: it is compiled before it turns the cache on.
const CHUNK_FILE = /(^|\/)chunk-[A-Za-z0-9]+\.js$/;
const imports = new Map();
for (const file of Object.keys(result.metafile.outputs)) {
  if (!file.endsWith('.js')) continue;
  const path = `${root}${file}`;
  let text = readFileSync(path, 'utf8');
  const at = text.indexOf(REQUIRE_BANNER);
  if (at === -1)
    throw new Error(`${file}: the require banner is missing; update scripts/bundle.mjs`);
  const rest = text.slice(0, at) + text.slice(at + REQUIRE_BANNER.length);
  if (!/\brequire\b/.test(rest)) text = rest;
  if (CHUNK_FILE.test(file)) {
    imports.set(file.replace(/^.*\//, ''), chunkImports(text));
    text = eagerFunctions(text, file).text;
  }
  writeFileSync(path, text);
}
assertAcyclic(imports);

// TypeBox is named by its part (typebox/schema, typebox/compile, …): which of them a command
// loads is a start-up cost of its own (its compiler is most of it; test/startup-weight.test.ts)
const packageOf = (input) => {
  const part = /node_modules\/typebox\/build\/([^/]+)\//.exec(input);
  if (part) return `typebox/${part[1]}`;
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match ? match[1] : input.startsWith('stub:') ? input : `(own) ${input}`;
};
const meta = {};
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  meta[file.replace(/^dist\/cli\//, '')] = [
    ...new Set(Object.keys(output.inputs).map(packageOf)),
  ].sort();
}
if (published) writeFileSync(`${root}dist/bundle-meta.json`, `${JSON.stringify(meta, null, 1)}\n`);
