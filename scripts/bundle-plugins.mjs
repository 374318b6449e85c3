/**
 * esbuild plugins of the bin's bundle (scripts/bundle.mjs) that change a dependency's code as it is
 * bundled, kept apart so a test can bundle with them (test/bundle-patches.test.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * @scure/starknet builds its Pedersen tables (2 × 252 curve points, ~500 point doublings) when it
 * is loaded, in both copies the bin bundles: starknet.js's (1.1, pinned by it) and ours (2.x,
 * shared/starknet.ts). Every money command loads both, and none hashes with Pedersen once the
 * account's address is remembered (docs/decisions.md "Hashing once per account"; starknet.js's
 * copy's Pedersen no command uses), so the tables are built on first use instead: ~10 ms of CPU
 * per command for each copy (docs/benchmarks.md "Issue 35"). The same statements, run later; if
 * a package changes them, the build fails here rather than silently getting slower.
 */
const PEDERSEN_EAGER = [
  [
    'const PEDERSEN_POINTS1 = pedersenPrecompute(PEDERSEN_POINTS[1], PEDERSEN_POINTS[2]);\nconst PEDERSEN_POINTS2 = pedersenPrecompute(PEDERSEN_POINTS[3], PEDERSEN_POINTS[4]);\n',
    'let PEDERSEN_TABLES;\nconst pedersenTables = () => (PEDERSEN_TABLES ??= [pedersenPrecompute(PEDERSEN_POINTS[1], PEDERSEN_POINTS[2]), pedersenPrecompute(PEDERSEN_POINTS[3], PEDERSEN_POINTS[4])]);\n',
  ],
  [
    '    point = pedersenSingle(point, x, PEDERSEN_POINTS1);\n    point = pedersenSingle(point, y, PEDERSEN_POINTS2);\n',
    '    const [PEDERSEN_POINTS1, PEDERSEN_POINTS2] = pedersenTables();\n    point = pedersenSingle(point, x, PEDERSEN_POINTS1);\n    point = pedersenSingle(point, y, PEDERSEN_POINTS2);\n',
  ],
];
/**
 * starknet.js's copy also derives its Poseidon round constants when it is loaded: 273 SHA-256
 * hashes of short strings ("Hades0", …) through @noble/hashes' JavaScript SHA-256 (~10 ms of a
 * trade's CPU: docs/benchmarks.md "Issue 35, fifth round"). They are hashed by node:crypto's
 * SHA-256 instead (the same digest; required, not imported: docs/decisions.md "Built-ins required,
 * TypeBox by name"), and only when starknet.js first hashes with Poseidon: a money command's
 * SNIP-12 hash no longer does (cli/core/chain/outside-hash.ts; docs/benchmarks.md "Issue 35,
 * sixth round"). If starknet.js came to import `poseidonSmall` itself, the bundle would fail (the
 * name is no longer exported). test/bundle-patches.test.ts holds the patched copy's Poseidon equal
 * to the original's.
 */
const POSEIDON_SMALL =
  'export const poseidonSmall = poseidonBasic({ Fp: Fp251, rate: 2, capacity: 1, roundsFull: 8, roundsPartial: 83 }, MDS_SMALL);';
const POSEIDON_LAZY = [
  [
    'const val = Fp.fromBytes(sha256(utf8ToBytes(`${name}${idx}`)));',
    "const val = Fp.fromBytes(new Uint8Array(require('node:crypto').createHash('sha256').update(`${name}${idx}`, 'utf8').digest()));",
  ],
  [
    POSEIDON_SMALL,
    `let POSEIDON_SMALL;\nconst poseidonSmallOf = () => (POSEIDON_SMALL ??= ${POSEIDON_SMALL.slice('export const poseidonSmall = '.length, -1)});`,
  ],
  ...[
    'poseidonHash(x, y',
    'poseidonHashFunc(x, y',
    'poseidonHashSingle(x',
    'poseidonHashMany(values',
  ].map((head) => [
    `export function ${head}, fn = poseidonSmall)`,
    `export function ${head}, fn = poseidonSmallOf())`,
  ]),
];

/** Our own copy (2.x): the same tables, each built by an arrow function called at once. */
const PEDERSEN_EAGER_2 = [
  [
    'const PEDERSEN_POINTS1 = /* @__PURE__ */ (() => pedersenPrecompute(PEDERSEN_POINTS[1], PEDERSEN_POINTS[2]))();\nconst PEDERSEN_POINTS2 = /* @__PURE__ */ (() => pedersenPrecompute(PEDERSEN_POINTS[3], PEDERSEN_POINTS[4]))();\n',
    PEDERSEN_EAGER[0][1],
  ],
  PEDERSEN_EAGER[1],
];

/** `source` with each statement replaced by its patched form; throws when one is not there once. */
function replaceOnce(path, source, replacements) {
  let patched = source;
  for (const [original, replacement] of replacements) {
    if (patched.split(original).length !== 2)
      throw new Error(
        `${path}: the code patched changed; update its plugin in scripts/bundle-plugins.mjs`,
      );
    patched = patched.replace(original, () => replacement);
  }
  return patched;
}

/** `source` with each eager table statement replaced by its lazy one. */
function lazyTables(path, source, replacements) {
  const patched = replaceOnce(path, source, replacements);
  if (patched.split('PEDERSEN_POINTS1').length !== 3)
    throw new Error(`${path}: PEDERSEN_POINTS1 is read elsewhere; update lazyPedersenTables`);
  return patched;
}

export const lazyPedersenTables = {
  name: 'lazy-pedersen-tables',
  setup(b) {
    b.onLoad(
      {
        filter: /starknet[\\/]node_modules[\\/]@scure[\\/]starknet[\\/]lib[\\/]esm[\\/]index\.js$/,
      },
      async (args) => ({
        contents: replaceOnce(
          args.path,
          lazyTables(args.path, await readFile(args.path, 'utf8'), PEDERSEN_EAGER),
          POSEIDON_LAZY,
        ),
        loader: 'js',
      }),
    );
    b.onLoad({ filter: /node_modules[\\/]@scure[\\/]starknet[\\/]index\.js$/ }, async (args) => ({
      contents: lazyTables(args.path, await readFile(args.path, 'utf8'), PEDERSEN_EAGER_2),
      loader: 'js',
    }));
  },
};

/**
 * string-width 8 (the copies Ink and its helpers bundle: ink's, widest-line's, cli-truncate's,
 * slice-ansi's, wrap-ansi's) builds an `Intl.Segmenter` when it is loaded, and measures any string
 * that is not printable ASCII grapheme by grapheme, through regular expressions over Unicode
 * properties (`\p{RGI_Emoji}`, whose set V8 builds when it parses the module). Loading ICU's
 * segmentation data and building that set took ~50 ms of the app's first frame, whose spinner and
 * "…" are not ASCII (docs/benchmarks.md "The app's first frame and string-width"). Patched: the
 * segmenter and the emoji expression are built on first use, and a
 * second fast path answers the string's length for strings made of printable ASCII and of
 * characters that, by the library's own rules, are one column wide and a grapheme of their own
 * whatever stands beside them (decided here, at build time, by running the library itself over a
 * few Unicode blocks: see `narrowClass`). Only with the default `ambiguousIsNarrow` (East Asian
 * "ambiguous" characters such as "…" and "—" are one column only then). Anything else goes the
 * library's way. test/bundle-patches.test.ts holds the patched copy's widths equal to the
 * original's on every character of the class and on random strings mixing them.
 */
const STRING_WIDTH_LAZY = [
  [
    'const segmenter = new Intl.Segmenter();',
    'let segmenterMade;\nconst segmenterOf = () => (segmenterMade ??= new Intl.Segmenter());',
  ],
  ['segmenter.segment(string)', 'segmenterOf().segment(string)'],
  // V8 builds `\p{RGI_Emoji}`'s set when it parses the expression, at load: ~35 ms
  [
    'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
    "let rgiEmojiMade;\nconst rgiEmojiRegexOf = () => (rgiEmojiMade ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v'));",
  ],
  ['rgiEmojiRegex.test(segment)', 'rgiEmojiRegexOf().test(segment)'],
];
const ASCII_FAST_PATH =
  'if (/^[\\u0020-\\u007E]*$/.test(string)) {\n\t\treturn string.length;\n\t}\n';

/**
 * The blocks looked at for the second fast path: Latin-1 and Latin Extended (A, B), Greek,
 * Cyrillic, and U+2010–U+2BFF (punctuation, arrows, mathematical and technical symbols, box
 * drawing, blocks, shapes, dingbats, braille: what a terminal UI draws with).
 */
const NARROW_BLOCKS = [
  [0xa0, 0x24f],
  [0x370, 0x4ff],
  [0x2010, 0x2bff],
];

/**
 * A character class (the body of `[…]`, as `\uXXXX` ranges) of the characters of NARROW_BLOCKS
 * that `stringWidth` (the original, loaded from `path`) measures as one column alone, and that
 * `Intl.Segmenter` never joins to a neighbour: between two "a"s and doubled, each stays a
 * grapheme of its own (no combining mark, joiner, spacing mark, prepended mark, Hangul jamo).
 * Grapheme breaks are decided pair by pair for these (their rules that look further need a
 * joiner or a regional indicator, neither of which is here), so a string of them and of
 * printable ASCII is as wide as it is long.
 */
async function narrowClass(path) {
  const { default: stringWidth } = await import(path);
  const segmenter = new Intl.Segmenter();
  const count = (text) => [...segmenter.segment(text)].length;
  const ranges = [];
  for (const [from, to] of NARROW_BLOCKS)
    for (let code = from; code <= to; code++) {
      const ch = String.fromCharCode(code);
      const narrow = stringWidth(ch) === 1 && count(`a${ch}a`) === 3 && count(`${ch}${ch}`) === 2;
      const last = ranges.at(-1);
      if (!narrow) continue;
      if (last !== undefined && last[1] === code - 1) last[1] = code;
      else ranges.push([code, code]);
    }
  const hex = (code) => `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('');
}

export const stringWidthNarrowFastPath = {
  name: 'string-width-narrow-fast-path',
  setup(b) {
    const classes = new Map();
    b.onLoad({ filter: /node_modules[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      // string-width 4 (CommonJS, starknet.js's CLI helpers) measures without a segmenter
      if (!source.includes('Intl.Segmenter')) return undefined;
      if (!classes.has(args.path)) classes.set(args.path, await narrowClass(args.path));
      const fastPaths = `${ASCII_FAST_PATH}\n\t// patched (scripts/bundle-plugins.mjs): one column per character, each a grapheme alone\n\tif (ambiguousIsNarrow && /^[\\u0020-\\u007E${classes.get(args.path)}]*$/.test(string)) {\n\t\treturn string.length;\n\t}\n`;
      return {
        contents: replaceOnce(args.path, source, [
          ...STRING_WIDTH_LAZY,
          [ASCII_FAST_PATH, fastPaths],
        ]),
        loader: 'js',
      };
    });
  },
};

/**
 * starknet.js hashes every entry-point name it sends (a call, the paymaster's safety check of the
 * calls) with its JavaScript keccak, cold on every command: a trade ran 17 (10 names), ~8 ms of
 * its CPU (docs/benchmarks.md "Issue 35, seventh round"). Its getSelectorFromName first looks the
 * name up in the program's table of known selectors (shared/selectors.ts, each held equal to the
 * hash by shared/selectors.test.ts) and hashes any other name as before. The table module imports
 * nothing, so starknet.js's chunk gains no dependency but it. If starknet.js changes the function,
 * the build fails here; test/bundle-patches.test.ts holds the patched function equal to the
 * original for every known name and for others.
 */
const SELECTORS_MODULE = fileURLToPath(new URL('../shared/selectors.ts', import.meta.url));
const GET_SELECTOR_FROM_NAME = [
  [
    'function getSelectorFromName(funcName) {\n  return toHex(starknetKeccak(funcName));\n}\n',
    'function getSelectorFromName(funcName) {\n  return __knownSelector(funcName) ?? toHex(starknetKeccak(funcName));\n}\n',
  ],
];

export const knownSelectors = {
  name: 'known-selectors',
  setup(b) {
    b.onLoad({ filter: /node_modules[\\/]starknet[\\/]dist[\\/]index\.mjs$/ }, async (args) => ({
      contents: `import { knownSelector as __knownSelector } from ${JSON.stringify(SELECTORS_MODULE)};\n${replaceOnce(args.path, await readFile(args.path, 'utf8'), GET_SELECTOR_FROM_NAME)}`,
      loader: 'js',
    }));
  },
};

/**
 * The history file's validator, generated when the bin is built instead of compiled by each
 * command that records a transaction (cli/core/history-check.ts): TypeBox's `Code` turns the
 * schema (cli/core/history-schema.ts, bundled here on its own) into a standalone module — the
 * check's code, importing TypeBox's guard and hashing helpers, and the patterns it tests as
 * external values — which replaces history-check.ts in the bundle, its patterns written out as
 * RegExp literals. ~10 ms of a trade's CPU (TypeBox's compiler loaded, the code built and
 * evaluated: docs/benchmarks.md "Issue 35, seventh round"). If TypeBox's output changes shape (an
 * external that is not a RegExp), the build fails here; test/bundle-patches.test.ts holds the
 * generated check to TypeBox's answers.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function historyCheckModule() {
  const generator = await build({
    stdin: {
      contents:
        "import { Code } from 'typebox/compile'; import { HistoryFile } from './cli/core/history-schema.ts'; export default Code(HistoryFile);",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  const { default: generated } = await import(
    `data:text/javascript,${encodeURIComponent(generator.outputFiles[0].text)}`
  );
  const { Code, External } = generated;
  const variables = External?.variables;
  if (typeof Code !== 'string' || !Array.isArray(variables) || External.identifier !== 'External')
    throw new Error('typebox/compile Code changed its output; update standaloneHistoryCheck');
  for (const value of variables)
    if (!(value instanceof RegExp))
      throw new Error(
        `the history validator has an external ${typeof value}, not a RegExp; update standaloneHistoryCheck`,
      );
  return [
    '// generated when the bin was built: scripts/bundle-plugins.mjs standaloneHistoryCheck',
    Code,
    `SetExternal({ variables: [${variables.map((re) => re.toString()).join(', ')}] });`,
    'const validator = Promise.resolve({ Check });',
    'export const historyFileCheck = () => validator;',
    '',
  ].join('\n');
}

export const standaloneHistoryCheck = {
  name: 'standalone-history-check',
  setup(b) {
    b.onLoad({ filter: /[\\/]cli[\\/]core[\\/]history-check\.ts$/ }, async (args) => ({
      contents: await historyCheckModule(),
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * The answer checks a module makes at its top level with `schemaCheck(schema)`
 * (cli/clients/schema-check.ts), generated when the bin is built, as the history's is above: a
 * command checks each answer once or twice, through TypeBox's interpreter, run cold (the route
 * and calldata answers of a trade ~6 ms of its CPU, the settings and sandbox files ~4 ms:
 * docs/benchmarks.md "Issue 35, eighth round"; docs/decisions.md "Answer and file checks generated
 * at build"). For each module of STANDALONE_CHECK_MODULES the build runs the module once with a
 * `schemaCheck` that records the schemas it is given, in the order of its own calls (not those of
 * the modules it imports), and TypeBox's `Code` turns each into a standalone check (its patterns
 * as RegExp literals). In the bundle, that module's `schemaCheck` import is a generated module
 * handing out the checks in the same order — so the schemas stay the one rule, and the module
 * runs unchanged but for where its checks come from. The build fails if a module's calls are not
 * all made at its top level (the count run differs from the count in its text) or TypeBox's
 * output changes shape; test/bundle-patches.test.ts holds the generated checks to TypeBox's
 * answers.
 */
export const STANDALONE_CHECK_MODULES = [
  'cli/clients/aggregator-schemas.ts',
  'cli/platform/settings.ts',
  'cli/platform/sandbox-state.ts',
  'cli/core/session.ts',
  'cli/clients/probe.ts',
  'cli/clients/auth-client.ts',
];
const SCHEMA_CHECK_IMPORT =
  /import \{ schemaCheck \} from '((?:\.\.?\/)+(?:clients\/)?schema-check\.js)';\n/;

/** `Code(schema)` as a module exporting `Check`, its externals set. */
function standaloneModule(Code, schema, what) {
  const { Code: code, External } = Code(schema);
  const variables = External?.variables;
  if (typeof code !== 'string' || !Array.isArray(variables) || External.identifier !== 'External')
    throw new Error(`${what}: typebox/compile Code changed its output; update standaloneChecks`);
  for (const value of variables)
    if (!(value instanceof RegExp))
      throw new Error(
        `${what}: an external ${typeof value}, not a RegExp; update standaloneChecks`,
      );
  return `${code}\nSetExternal({ variables: [${variables.map((re) => re.toString()).join(', ')}] });\n`;
}

/**
 * `contents` (TypeScript, its imports resolved from the checkout's root) bundled as one ES module
 * for Node, with `plugins`; the packages stay imports, loaded from node_modules when it runs
 * (bundling starknet.js's 800 kB for a module that only imports it took seconds a module).
 */
export async function bundleWithoutPackages(contents, plugins) {
  const result = await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
    plugins,
  });
  return result.outputFiles[0].text;
}

/**
 * `text` imported as a module file (one that reads import.meta.url, for createRequire, needs a
 * file URL) in the checkout's .cache, where its packages resolve from node_modules; the file is
 * removed once it is loaded.
 */
export async function importFromCheckout(text) {
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const folder = mkdtempSync(join(ROOT, '.cache', 'finance-tui-module-'));
  try {
    writeFileSync(join(folder, 'module.mjs'), text);
    return await import(pathToFileURL(join(folder, 'module.mjs')).href);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The generated checks of `file` (relative to the root), in the order its top level makes them. */
async function checksOf(file) {
  const source = await readFile(`${ROOT}${file}`, 'utf8');
  if (!SCHEMA_CHECK_IMPORT.test(source))
    throw new Error(`${file}: no \`import { schemaCheck }\` line; update standaloneChecks`);
  // where this run's schemas are recorded (the files are generated side by side)
  const key = `__ftSchemas${Math.random().toString(36).slice(2)}`;
  const generator = await bundleWithoutPackages(
    `import { Code } from 'typebox/compile'; import ${JSON.stringify(`./${file}`)}; export { Code };`,
    [
      {
        name: 'record-schema-checks',
        setup(b) {
          // the module's own calls are recorded; those of the modules it imports are not
          b.onResolve({ filter: /schema-check\.js$/ }, (args) => ({
            path: args.importer === `${ROOT}${file}` ? 'record' : 'quiet',
            namespace: 'schema-check-stub',
          }));
          b.onLoad({ filter: /.*/, namespace: 'schema-check-stub' }, (args) => ({
            contents: `export const schemaCheck = (schema) => { ${
              args.path === 'record' ? `globalThis[${JSON.stringify(key)}].push(schema); ` : ''
            }return { Check: () => false, compiled: false, schema }; };`,
            loader: 'js',
          }));
        },
      },
    ],
  );
  globalThis[key] = [];
  const { Code } = await importFromCheckout(generator);
  const schemas = globalThis[key];
  delete globalThis[key];
  const calls = source.split('schemaCheck(').length - 1;
  if (schemas.length !== calls)
    throw new Error(
      `${file}: ${calls} schemaCheck calls in the text, ${schemas.length} made at its top level; update standaloneChecks`,
    );
  return schemas.map((schema, i) => standaloneModule(Code, schema, `${file} check ${i}`));
}

export const standaloneChecks = {
  name: 'standalone-checks',
  setup(b) {
    // per file, its checks generated once (the module and its generated imports all wait on it)
    const generated = new Map();
    const checksFor = (file) => {
      if (!generated.has(file)) generated.set(file, checksOf(file));
      return generated.get(file);
    };
    const modules = new Set(STANDALONE_CHECK_MODULES.map((file) => `${ROOT}${file}`));
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!modules.has(args.path)) return undefined;
      const file = args.path.slice(ROOT.length);
      await checksFor(file);
      const source = await readFile(args.path, 'utf8');
      return {
        contents: source.replace(
          SCHEMA_CHECK_IMPORT,
          `import { schemaCheck } from ${JSON.stringify(`standalone-checks:${file}`)};\n`,
        ),
        loader: 'ts',
        resolveDir: dirname(args.path),
      };
    });
    b.onResolve({ filter: /^standalone-check(s)?:/ }, (args) => ({
      path: args.path.slice(args.path.indexOf(':') + 1),
      namespace: args.path.slice(0, args.path.indexOf(':')),
    }));
    b.onLoad({ filter: /.*/, namespace: 'standalone-checks' }, async (args) => {
      const count = (await checksFor(args.path)).length;
      const names = Array.from({ length: count }, (_, i) => `check${i}`);
      return {
        contents: [
          '// generated when the bin was built: scripts/bundle-plugins.mjs standaloneChecks',
          ...names.map(
            (name, i) =>
              `import { Check as ${name} } from ${JSON.stringify(`standalone-check:${args.path}#${i}`)};`,
          ),
          `const checks = [${names.join(', ')}];`,
          '// the checks handed out, with the schemas they were asked for (test/bundle-patches.test.ts)',
          'export const issued = [];',
          'export function schemaCheck(schema) {',
          '  const Check = checks[issued.length];',
          "  if (Check === undefined) throw new Error('more schemaCheck calls than at build time');",
          '  const made = { Check, compiled: true, schema };',
          '  issued.push(made);',
          '  return made;',
          '}',
          '',
        ].join('\n'),
        loader: 'js',
        resolveDir: ROOT,
      };
    });
    b.onLoad({ filter: /.*/, namespace: 'standalone-check' }, async (args) => {
      const at = args.path.lastIndexOf('#');
      const checks = await checksFor(args.path.slice(0, at));
      return { contents: checks[Number(args.path.slice(at + 1))], loader: 'js', resolveDir: ROOT };
    });
  },
};
