/**
 * The bundle's chunks with their functions compiled eagerly (scripts/eager-functions.mjs) behave
 * as they did: each module below, run as written and as rewritten, exports the same result — a
 * function called before its declaration, at the top and inside a function, one that reassigns
 * itself (Yoga's compiled code does), names, async functions and generators, exported and block
 * declarations left alone, parameters shadowed, `new function`, arrows in defaults and
 * conditionals, class methods, `arguments`, recursion, a #! line. The chunks of the built bin are
 * already rewritten (a second pass changes nothing), and an import cycle between chunks fails the
 * build.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JS (no declarations)
import * as eager from '../scripts/eager-functions.mjs';

const { assertAcyclic, chunkImports, eagerFunctions } = eager as {
  assertAcyclic(imports: Map<string, string[]>): void;
  chunkImports(text: string): string[];
  eagerFunctions(
    source: string,
    fileName?: string,
  ): { text: string; declarations: number; expressions: number };
};

const DIST = fileURLToPath(new URL('../dist/cli/', import.meta.url));

async function resultOf(source: string): Promise<unknown> {
  const module = (await import(
    `data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`
  )) as { r: unknown };
  return module.r;
}

const MODULES: Record<string, string> = {
  'a call before the declaration': 'export const r = f(2);\nfunction f(x) { return x * 2; }',
  'a declaration inside a function, called before it':
    'function outer() { return g(); function g() { return "g"; } }\nexport const r = outer();',
  'a function that reassigns itself':
    'function T() { T = function () { return 2; }; return 1; }\nexport const r = [T(), T()];',
  'names kept':
    'function named() {}\nconst arrow = () => 1;\nexport const r = [named.name, arrow.name];',
  'async functions and generators':
    'async function a() { return 1; }\nfunction* g() { yield 2; yield 3; }\nexport const r = [await a(), ...g()];',
  'an exported declaration': 'export function e() { return 3; }\nexport const r = e();',
  'a declaration in a block':
    'export let r;\nif (r === undefined) { function b() { return 4; } r = b(); }',
  'a parameter shadowed by a declaration':
    'function f(g) { function g() { return 5; } return g(); }\nexport const r = f(1);',
  'an IIFE': 'export const r = (function () { return 6; })();',
  'new function': 'export const r = new function () { this.v = 7; }().v;',
  'arrows in a default and a conditional':
    'const pick = (c, a = () => 1) => c ? () => 2 : a;\nexport const r = [pick(true)(), pick(false)()];',
  'a class method with a declaration inside':
    'class C { m() { function h() { return this === undefined ? 9 : 0; } return h(); } }\nexport const r = new C().m();',
  arguments: 'function count() { return arguments.length; }\nexport const r = count(1, 2, 3);',
  recursion: 'function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }\nexport const r = fact(5);',
  'a #! line': '#!/usr/bin/env node\nfunction f() { return 8; }\nexport const r = f();',
  callbacks: 'export const r = [1, 2, 3].map(function (x) { return x + 1; }).filter((x) => x > 2);',
};

describe('eagerFunctions', () => {
  for (const [name, source] of Object.entries(MODULES))
    it(`keeps the behaviour: ${name}`, async () => {
      const rewritten = eagerFunctions(source, `${name}.js`);
      expect(await resultOf(rewritten.text)).toEqual(await resultOf(source));
      // a second pass finds nothing left to change
      expect(eagerFunctions(rewritten.text).text).toBe(rewritten.text);
    });

  it('makes declarations variables at the top of their scope and parenthesizes expressions', () => {
    const { text, declarations, expressions } = eagerFunctions(
      'export const r = f();\nfunction f() { return g(() => 1); function g(h) { return h(); } }',
    );
    expect(text).toBe(
      'var f=(function() {var g=(function(h) { return h(); }); return g((() => 1));  });export const r = f();\n',
    );
    expect({ declarations, expressions }).toEqual({ declarations: 2, expressions: 1 });
  });

  it('leaves exported, block-level and parenthesized functions as they are', () => {
    const source =
      'export function e() { return 1; }\nif (e()) { function b() {} }\nexport const r = (() => 2)();';
    expect(eagerFunctions(source)).toEqual({ text: source, declarations: 0, expressions: 0 });
  });

  it('refuses a text it cannot parse', () => {
    expect(() => eagerFunctions('function (', 'broken.js')).toThrow(/broken\.js: not parsed/);
  });
});

describe('the chunks of the built bin', () => {
  const chunks = readdirSync(DIST).filter((file) => /^chunk-[A-Za-z0-9]+\.js$/.test(file));

  it('are rewritten already, and import each other without a cycle', () => {
    expect(chunks.length).toBeGreaterThan(10);
    const imports = new Map<string, string[]>();
    let functions = 0;
    for (const file of chunks) {
      const text = readFileSync(`${DIST}${file}`, 'utf8');
      const again = eagerFunctions(text, file);
      expect({ file, ...again, text: undefined }).toEqual({
        file,
        text: undefined,
        declarations: 0,
        expressions: 0,
      });
      functions += (text.match(/=\((?:async )?function\*?\(/g) ?? []).length;
      imports.set(file, chunkImports(text));
    }
    // the bundle has thousands of functions: most are now variables
    expect(functions).toBeGreaterThan(1000);
    expect(() => assertAcyclic(imports)).not.toThrow();
  });
});

describe('assertAcyclic', () => {
  it('names the cycle', () => {
    const imports = new Map([
      ['chunk-A.js', ['chunk-B.js']],
      ['chunk-B.js', ['chunk-C.js']],
      ['chunk-C.js', ['chunk-A.js']],
      ['chunk-D.js', ['chunk-A.js']],
    ]);
    expect(() => assertAcyclic(imports)).toThrow(
      /chunk-A\.js → chunk-B\.js → chunk-C\.js → chunk-A\.js/,
    );
  });

  it('reads the static imports of a minified chunk', () => {
    expect(
      chunkImports(
        'import{a}from"./chunk-AB12.js";import"./chunk-CD34.js";await import("./chunk-EF56.js");',
      ),
    ).toEqual(['chunk-AB12.js', 'chunk-CD34.js']);
  });
});
