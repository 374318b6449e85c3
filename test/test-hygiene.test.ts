/**
 * The suite's timing hygiene (issue 17 §2), checked by reading the test files: no assertion on a
 * wall-clock bound (`expect(Date.now() - started).toBeLessThan(…)`), no fixed sleep standing in
 * for an event ("wait 100 ms, then assert nothing happened"), no `toBeDefined()` on an error
 * where its stable code can be asserted, no bare `toThrow()`. Use fake timers (vi.useFakeTimers), counters or events;
 * a sleep that is a poll for a condition, or that paces a load generator, goes in ALLOWED with
 * its reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = 'test/test-hygiene.test.ts';

type Rule = 'elapsed' | 'sleep' | 'error-defined' | 'bare-throw';

const RULES: ReadonlyArray<{ rule: Rule; pattern: RegExp; hint: string }> = [
  {
    rule: 'elapsed',
    // a clock read inside an assertion, or a duration variable compared to a bound
    pattern:
      /expect\([^;]*(performance\.now\(|Date\.now\(\)\s*-|process\.hrtime)|expect\(\s*(elapsed\w*|\w*Elapsed|ms|\w*Ms|duration\w*|took\w*)\s*\)\s*\.\s*(not\s*\.\s*)?toBe(Less|Greater)Than/,
    hint: 'assert on a fake clock (vi.useFakeTimers, advanceTimersByTimeAsync) or an event, not elapsed wall time',
  },
  {
    rule: 'sleep',
    // a promise that resolves after a fixed time (a poll in `while (…) await …` on the same line is a wait for a condition)
    pattern:
      /^(?!\s*while\s*\().*new Promise\w*(<[^>]*>)?\(\s*\(?\s*\w*\s*\)?\s*=>\s*\{?\s*setTimeout\(\s*(\w+|\(\)\s*=>\s*\w+\(\s*\))\s*,/,
    hint: 'wait for the event (vi.waitFor, a promise the code resolves, a counter), or move the clock with fake timers',
  },
  {
    rule: 'sleep',
    // the promise form of setTimeout: `await setTimeout(100)` is the same fixed sleep
    pattern: /from\s+['"](node:)?timers\/promises['"]/,
    hint: 'wait for the event (vi.waitFor, a promise the code resolves, a counter), or move the clock with fake timers',
  },
  {
    rule: 'error-defined',
    pattern:
      /expect\(\s*\w*(err|error|failure|rejection)\w*\s*\)\s*\.\s*(toBeDefined|toBeTruthy)\(\)/i,
    hint: "assert the error's stable code: toMatchObject({ code: '…' })",
  },
  {
    rule: 'bare-throw',
    // any error at all passes a bare toThrow(): a timeout where a refusal was meant, a TypeError
    pattern: /(?<!\.not)\.toThrow(Error)?\(\s*\)/,
    hint: "say which error: toThrow(/message/), rejects.toMatchObject({ code: '…' }) or { cause: { code: 'ECONNREFUSED' } }",
  },
];

/**
 * Allowed, with why, and how many lines of the file: a new sleep in an allowed file is not let
 * through by the entry, and a count that no longer matches (one removed, one added) fails too.
 */
const ALLOWED: ReadonlyArray<{ file: string; rule: Rule; lines: number; why: string }> = [
  {
    file: 'test/helpers/tui.tsx',
    rule: 'sleep',
    lines: 2,
    why: 'waitForFrame polls the frame for a condition; a lone Esc is held ~20 ms by Ink itself before it fires',
  },
  {
    file: 'test/server-provisioning.test.ts',
    rule: 'sleep',
    lines: 1,
    why: 'latency inside a fake identity provider so concurrent sign-ins interleave; outcomes are asserted by counts',
  },
  {
    file: 'test/server-transport.test.ts',
    rule: 'sleep',
    lines: 2,
    why: 'paces a connection flood between top-ups; gives a handler released after its client left the time to answer into the closed connection, to see no second line (an absence has no event)',
  },
  {
    file: 'test/server-redis.test.ts',
    rule: 'sleep',
    lines: 1,
    why: 'polls (at most 100 tries) until the server has reconnected to the restarted Redis',
  },
  {
    file: 'test/cli-money-edges.test.ts',
    rule: 'sleep',
    lines: 1,
    why: 'polls the history file until the expected entry appears',
  },
];

interface Finding {
  file: string;
  line: number;
  rule: Rule;
  text: string;
}

function findViolations(file: string, text: string): Finding[] {
  const findings: Finding[] = [];
  text.split('\n').forEach((line, index) => {
    for (const { rule, pattern } of RULES)
      if (pattern.test(line)) findings.push({ file, line: index + 1, rule, text: line.trim() });
  });
  return findings;
}

function testFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'fixtures') walk(path);
      } else if (/\.test\.tsx?$/.test(entry.name) || dir.endsWith(join('test', 'helpers')))
        files.push(relative(ROOT, path).split('\\').join('/'));
    }
  };
  for (const top of ['cli', 'server', 'shared', 'sandbox', 'test']) walk(join(ROOT, top));
  return files.filter((file) => file !== SELF);
}

describe('test hygiene: nothing timing-dependent', () => {
  it('no test asserts on wall-clock time, sleeps in place of an event, or stops at toBeDefined() on an error', () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(50);
    const all = files.flatMap((file) =>
      findViolations(file, readFileSync(join(ROOT, file), 'utf8')),
    );
    const allowed = (f: Finding) => ALLOWED.some((a) => a.file === f.file && a.rule === f.rule);
    const report = all
      .filter((f) => !allowed(f))
      .map(
        (f) =>
          `${f.file}:${f.line} [${f.rule}] ${f.text}\n  → ${RULES.find((r) => r.rule === f.rule)?.hint}`,
      );
    expect(report, report.join('\n')).toEqual([]);
    const counted = ALLOWED.map((a) => ({
      ...a,
      found: all.filter((f) => f.file === a.file && f.rule === a.rule).length,
    }));
    const mismatched = counted
      .filter((a) => a.found !== a.lines)
      .map((a) => `${a.file} [${a.rule}]: ${a.found} lines, the list says ${a.lines}`);
    expect(mismatched, 'allowlist counts that no longer match: fix the test or the list').toEqual(
      [],
    );
  });

  it.each<[string, Rule]>([
    ['expect(Date.now() - started).toBeLessThan(400);', 'elapsed'],
    ['expect(performance.now() - abortedAt).toBeLessThan(100);', 'elapsed'],
    ['    expect(elapsed).toBeGreaterThanOrEqual(4_900);', 'elapsed'],
    ['expect(ms).toBeLessThan(100);', 'elapsed'],
    ['expect(process.hrtime.bigint() - t0 < 5n).toBe(true);', 'elapsed'],
    ['    await new Promise((resolve) => setTimeout(resolve, 150));', 'sleep'],
    ['const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));', 'sleep'],
    ['await new Promise<void>((resolve) => { setTimeout(resolve, 50); });', 'sleep'],
    ['await new Promise((resolve) => setTimeout(() => resolve(), 50));', 'sleep'],
    ["import { setTimeout as sleep } from 'node:timers/promises';", 'sleep'],
    ['    expect(error).toBeDefined();', 'error-defined'],
    ['expect(thrownError).toBeTruthy();', 'error-defined'],
    ['await expect(fetch(url)).rejects.toThrow();', 'bare-throw'],
    ['expect(() => parse(x)).toThrowError();', 'bare-throw'],
  ])('catches a planted example: %s', (line, rule) => {
    expect(findViolations('planted.test.ts', `it('x', async () => {\n${line}\n});`)).toMatchObject([
      { rule, line: 2 },
    ]);
  });

  it.each([
    'expect(q.route.length).toBeGreaterThan(0);',
    'expect(Date.parse(first.expiresAt) - Date.now()).toBeGreaterThan(WEEK - 60_000);',
    'while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));',
    'await new Promise((resolve) => server.close(resolve));',
    'await vi.advanceTimersByTimeAsync(999);',
    "expect(error).toMatchObject({ code: 'CANCELLED' });",
    'expect(result.data.retryAfter).toBeLessThanOrEqual(60);',
    'expect(() => parse(x)).not.toThrow();',
    'expect(() => parse(x)).toThrow(/bad amount/);',
  ])('leaves alone: %s', (line) => {
    expect(findViolations('clean.test.ts', line)).toEqual([]);
  });
});
