import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { COALESCE_MS, ownProcessSignals } from './signals.js';

function owner() {
  const target = new EventEmitter();
  const exits: number[] = [];
  let now = 1_000;
  const signals = ownProcessSignals({
    stderr: new PassThrough(),
    stderrIsTTY: false,
    target,
    exit: (code) => exits.push(code),
    now: () => now,
  });
  return { target, exits, signals, advance: (ms: number) => (now += ms) };
}

describe('ownProcessSignals', () => {
  it('the first signal aborts with CANCELLED; a second one within the window is the same Ctrl+C delivered twice', () => {
    const { target, exits, signals, advance } = owner();
    target.emit('SIGINT', 'SIGINT');
    expect(signals.signal.aborted).toBe(true);
    expect((signals.signal.reason as { code?: string }).code).toBe('CANCELLED');
    advance(COALESCE_MS - 1);
    target.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([]);
    advance(1);
    target.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([130]);
    signals.dispose();
  });

  it('a later SIGTERM forces with 143', () => {
    const { target, exits, signals, advance } = owner();
    target.emit('SIGTERM', 'SIGTERM');
    advance(COALESCE_MS + 50);
    target.emit('SIGTERM', 'SIGTERM');
    expect(exits).toEqual([143]);
    signals.dispose();
  });

  describe('other listeners', () => {
    // A module under a node_modules/when-exit folder, like the real one conf loads through atomically.
    const dir = mkdtempSync(join(tmpdir(), 'finance-tui-when-exit-'));
    const fake = join(dir, 'node_modules', 'when-exit', 'index.mjs');
    mkdirSync(join(dir, 'node_modules', 'when-exit'), { recursive: true });
    writeFileSync(
      fake,
      'export function hook(target) { target.once("SIGINT", () => undefined); target.once("SIGTERM", () => undefined); target.once("SIGHUP", () => undefined); }\n',
    );
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("when-exit's SIGINT/SIGTERM listeners are refused; its SIGHUP and everyone else's stay", async () => {
      const { target, signals } = owner();
      const foreign = (): void => undefined;
      target.on('SIGINT', foreign);
      const { hook } = (await import(pathToFileURL(fake).href)) as {
        hook: (t: EventEmitter) => void;
      };
      hook(target);
      await Promise.resolve(); // removal happens right after the add
      expect(target.listeners('SIGINT')).toHaveLength(2); // ours + foreign
      expect(target.listeners('SIGINT')).toContain(foreign);
      expect(target.listeners('SIGTERM')).toHaveLength(1); // ours
      expect(target.listeners('SIGHUP')).toHaveLength(1); // when-exit's, left alone
      signals.dispose();
      expect(target.listeners('SIGINT')).toEqual([foreign]);
    });
  });
});
