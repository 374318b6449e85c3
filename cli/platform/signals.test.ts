import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
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

  it('a hang-up stops as a signal does, says nothing, and never forces; Ctrl+C after it still does', () => {
    const stderr = new PassThrough();
    const target = new EventEmitter();
    const exits: number[] = [];
    let now = 1_000;
    const signals = ownProcessSignals({
      stderr,
      stderrIsTTY: true,
      target,
      exit: (code) => exits.push(code),
      now: () => now,
    });
    target.emit('SIGHUP', 'SIGHUP');
    expect((signals.signal.reason as { code?: string }).code).toBe('CANCELLED');
    now += COALESCE_MS * 10;
    target.emit('SIGHUP', 'SIGHUP');
    expect(exits).toEqual([]);
    expect(stderr.read()).toBeNull();
    target.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([130]);
    signals.dispose();
    expect(target.listeners('SIGHUP')).toEqual([]);
  });

  it('hangup: false (serve, sandbox) leaves SIGHUP alone', () => {
    const target = new EventEmitter();
    const signals = ownProcessSignals({
      stderr: new PassThrough(),
      stderrIsTTY: false,
      hangup: false,
      target,
      exit: () => undefined,
    });
    expect(target.listeners('SIGHUP')).toEqual([]);
    expect(target.listeners('SIGTERM')).toHaveLength(1);
    signals.dispose();
  });

  it('leaves other listeners alone, and dispose removes only its own', () => {
    const { target, signals } = owner();
    const foreign = (): void => undefined;
    target.on('SIGINT', foreign);
    expect(target.listeners('SIGINT')).toHaveLength(2);
    signals.dispose();
    expect(target.listeners('SIGINT')).toEqual([foreign]);
    expect(target.listeners('SIGTERM')).toEqual([]);
  });
});
