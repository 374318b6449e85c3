/**
 * The core names no face's flag or command (docs/architecture.md "Layout"; cli/core/remedy.ts):
 * a refusal carries what it is about (`details.field`) and its remedy (`details.remedy`) as data,
 * and each face words them. Every string the core's source writes — quoted, or a template's text
 * — is read here with TypeScript's own scanner (comments are not strings), and none may hold a
 * flag (`--target`) or a `finance-tui …` command.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const CORE = join(root, 'cli/core');

/** A flag or a command of the headless face, as it would appear in a message. */
const FACE_WORDS = /(?:^|[^\w-])--[a-z][a-z-]*|\bfinance-tui [a-z]/;

/**
 * The only strings allowed to name one, each with its reason. The kinds table is the one
 * declaration every face derives from (cli/core/actions/kinds.ts): its `command` and `summary`
 * columns are the headless face's words for the kind, kept beside it so a new kind is one row.
 * `loginCommand` is the sign-in command the headless line and the tool server both hand to a
 * person (cli/core/remedy.ts), written once.
 */
const ALLOWED: Record<string, RegExp> = {
  'cli/core/actions/kinds.ts': /^(?:unstake --complete|start the exit of staked STRK .*)$/,
  'cli/core/remedy.ts': /^(?:finance-tui login | --sandbox)$/,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every string literal's text (templates piece by piece) in `text`. */
export function stringsOf(text: string, fileName = 'x.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      // an import's specifier is a path, not a message
      if (!ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent))
        found.push(node.text);
    } else if (ts.isTemplateExpression(node)) {
      found.push(node.head.text, ...node.templateSpans.map((span) => span.literal.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The strings of `text` that name a flag or a command, less those allowed for `file`. */
export function faceWordsIn(file: string, text: string): string[] {
  // Without a backslash (no escape, no line continuation) a string's text is a piece of the
  // file's, between a quote, a backtick or a brace: a file whose text names none has no string
  // that does, and is not parsed (two thirds of cli/core's files)
  if (!text.includes('\\') && !FACE_WORDS.test(text)) return [];
  const allowed = ALLOWED[file];
  return stringsOf(text, file).filter(
    (s) => FACE_WORDS.test(s) && !(allowed !== undefined && allowed.test(s)),
  );
}

describe('the core names no face’s flag or command', () => {
  it('finds them where they are (the rule can fail)', () => {
    expect(faceWordsIn('cli/core/x.ts', "throw usageError('--target is required');")).toEqual([
      '--target is required',
    ]);
    expect(
      faceWordsIn('cli/core/x.ts', 'const m = `check \\`finance-tui history\\` at ${t}`;'),
    ).toEqual(['check `finance-tui history` at ']);
    expect(faceWordsIn('cli/core/x.ts', "const s = 'the minimum trade: 10 USD';")).toEqual([]);
    // an escape writes what the file's text does not show: such a file is read string by string
    expect(faceWordsIn('cli/core/x.ts', "const s = '\\x2d\\x2dtarget is required';")).toEqual([
      '--target is required',
    ]);
    // comments are not strings; a path in an import is not a message
    expect(
      faceWordsIn('cli/core/x.ts', "// use --sandbox\nimport x from './finance-tui x';"),
    ).toEqual([]);
  });

  it('no string of cli/core names one', () => {
    const problems = sourceFiles(CORE).flatMap((path) => {
      const file = relative(root, path);
      return faceWordsIn(file, readFileSync(path, 'utf8')).map((s) => `${file}: ${s}`);
    });
    expect(problems).toEqual([]);
  });
});
