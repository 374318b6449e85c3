/**
 * Every command keeps a test that spawns the real bin (docs/decisions.md "Bin runs in-process
 * where the result is the subject"): tests whose subject is a command's result may run the built
 * program in the test's worker (cliInProcess), but each command of the table (cli/run.ts
 * COMMANDS) must still be run as a process by at least one test, so its exit, streams and start
 * stay tested as a person runs them. Checked by reading the test files: a call of a spawning
 * helper (`cli`, `runBin`, `spawnBin`, `runBinTracingModules`), or of a file's own arrow or
 * function that calls one, whose argument list starts with the command's word(s). Reads files only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../cli/run.js';

const ROOT = join(import.meta.dirname, '..');
const SPAWNERS = ['cli', 'runBin', 'spawnBin', 'runBinTracingModules'];

/** The commands (one word, or a two-word pair of the table) spawned by `text`'s tests. */
function spawnedCommands(text: string, commands: ReadonlySet<string>): Set<string> {
  // `const alice = (args: string[]) => cli(home, [...args])`, `function run(args) { return runBin(…`
  const wrappers = [
    ...text.matchAll(
      /(?:const|function)\s+(\w+)\s*=?\s*(?:async\s*)?\([^)]*\)[^{;]*?(?:=>\s*|\{\s*(?:return\s+)?)(?:await\s+)?(\w+)\(/g,
    ),
  ]
    .filter((m) => SPAWNERS.includes(m[2] as string))
    .map((m) => m[1] as string);
  const callers = [...new Set([...SPAWNERS, ...wrappers])].join('|');
  const call = new RegExp(
    `(?<![\\w.])(?:${callers})\\(\\s*(?:[\\w.()]+\\s*,\\s*)?\\[\\s*'([a-z][a-z-]*)'(?:\\s*,\\s*'([a-z][a-z-]*)')?`,
    'g',
  );
  const found = new Set<string>();
  for (const m of text.matchAll(call)) {
    const pair = `${m[1]} ${m[2]}`;
    found.add(m[2] !== undefined && commands.has(pair) ? pair : (m[1] as string));
  }
  return found;
}

describe('every command keeps a spawned-bin test', () => {
  it('recognises spawned calls and wrappers, not in-process ones', () => {
    const commands = new Set(['send', 'balance', 'sandbox', 'sandbox price', 'history']);
    const text = [
      "const alice = (args: string[]) => cli(users.aliceHome, [...args, '--json']);",
      "const quiet = (args: string[]) => cliInProcess(home, [...args, '--json']);",
      "await alice(['send', '1', 'STRK']);",
      "await quiet(['history']);",
      "await cliInProcess(home, ['history', '--json']);",
      "await runBin(['sandbox', 'price', 'ETH', '1'], env);",
      "await cli(home, [\n  'balance',\n  '--json',\n]);",
    ].join('\n');
    expect([...spawnedCommands(text, commands)].sort()).toEqual([
      'balance',
      'sandbox price',
      'send',
    ]);
  });

  it('each command of the table is spawned by some process test', () => {
    const commands = new Set(Object.keys(COMMANDS));
    const spawned = new Set<string>();
    for (const name of readdirSync(join(ROOT, 'test')).filter((f) => /\.test\.tsx?$/.test(f)))
      for (const command of spawnedCommands(
        readFileSync(join(ROOT, 'test', name), 'utf8'),
        commands,
      ))
        spawned.add(command);
    // the servers are spawned by the helpers every sandbox test starts from
    for (const name of readdirSync(join(ROOT, 'test', 'helpers')))
      for (const command of spawnedCommands(
        readFileSync(join(ROOT, 'test', 'helpers', name), 'utf8'),
        commands,
      ))
        spawned.add(command);
    expect([...commands].filter((command) => !spawned.has(command))).toEqual([]);
  });
});
