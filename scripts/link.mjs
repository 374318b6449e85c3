// `npm run link`: puts `finance-tui` on PATH for new shells and MCP hosts (README "Set-up").
// A link named finance-tui to this checkout's bin/finance-tui (a launcher that runs the built
// dist/ with Node >= 22 whatever PATH holds: `npm link` would link into the global prefix of the
// Node that ran it — with .ci/node.sh, .ci/.node, which no new shell has on PATH — and its bin
// would run on the first `node` on PATH, which may be older).
// Where: --dir DIR (or FINANCE_TUI_BIN_DIR), else the first of ~/.local/bin and ~/bin already on
// PATH, else ~/.local/bin (created), with the line to add to the shell's startup file.
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const launcher = join(root, 'bin', 'finance-tui');
const fail = (message) => {
  process.stderr.write(`finance-tui link: ${message}\n`);
  process.exit(1);
};

const args = process.argv.slice(2);
const dirFlag = args.indexOf('--dir');
if (dirFlag !== -1 && args[dirFlag + 1] === undefined) fail('--dir needs a folder');
const onPath = (process.env.PATH ?? '')
  .split(delimiter)
  .filter(Boolean)
  .map((p) => resolve(p));
const home = homedir();
const candidates = [join(home, '.local', 'bin'), join(home, 'bin')];
const chosen =
  (dirFlag === -1 ? undefined : resolve(args[dirFlag + 1])) ??
  (process.env.FINANCE_TUI_BIN_DIR ? resolve(process.env.FINANCE_TUI_BIN_DIR) : undefined) ??
  candidates.find((c) => onPath.includes(c)) ??
  candidates[0];

if (!existsSync(join(root, 'dist', 'cli', 'main.js')))
  fail(`${root} is not built yet: run \`npm ci\` (or \`npm run build\`) first`);
mkdirSync(chosen, { recursive: true });
const link = join(chosen, 'finance-tui');
let existing;
try {
  existing = lstatSync(link);
} catch {
  existing = undefined;
}
if (existing !== undefined) {
  // replace only a link (an earlier `npm run link`, or `npm link`), never someone's file
  if (!existing.isSymbolicLink())
    fail(`${link} exists and is not a link: remove it, or choose another folder with --dir`);
  rmSync(link);
}
symlinkSync(launcher, link);
const lines = [`finance-tui: ${link} -> ${readlinkSync(link)}`];
if (!onPath.includes(chosen))
  lines.push(
    `${chosen} is not on PATH: add this line to ~/.bashrc or ~/.zshrc (or ~/.profile), then open a new shell:`,
    `  export PATH="${chosen}:$PATH"`,
  );
lines.push(
  "An MCP host (whose PATH may not be your shell's) can name the launcher itself:",
  `  { "mcpServers": { "finance-tui": { "command": "${launcher}", "args": ["mcp", "--sandbox"] } } }`,
);
process.stdout.write(`${lines.join('\n')}\n`);
