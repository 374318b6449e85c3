import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { codeOf } from '../../test/helpers/failure.js';
import { tempHome } from '../../test/helpers/home.js';
import { BUDGET_FILE, BUDGET_WINDOW_MS, openBudget } from './budget.js';

const homes: Array<() => void> = [];
function home(): string {
  const { dir, cleanup } = tempHome();
  homes.push(cleanup);
  return dir;
}
afterEach(() => {
  while (homes.length > 0) homes.pop()?.();
});

describe('the rolling spending budget', () => {
  it('counts reserved spends: 30 + 30 of 60 pass, a third is BUDGET_EXCEEDED; a reopened record still counts them', async () => {
    const dir = home();
    let t = 1_000_000;
    const open = () => openBudget(dir, { limitCents: 6000n, chain: 'sandbox:a', now: () => t });
    const budget = open();
    await budget.reserve(3000n);
    t += 1000;
    await budget.reserve(3000n);
    expect(await codeOf(budget.check(1n))).toBe('BUDGET_EXCEEDED');
    expect(await codeOf(open().reserve(3000n))).toBe('BUDGET_EXCEEDED');
    expect(await open().status()).toMatchObject({
      limitCents: 6000n,
      spentCents: 6000n,
      leftCents: 0n,
      windowMs: BUDGET_WINDOW_MS,
      nextReleaseAt: 1_000_000 + BUDGET_WINDOW_MS,
    });
    const refused = await open()
      .reserve(1n)
      .catch((e: unknown) => e as AppError);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).details).toMatchObject({ leftUsd: '0.00', budgetUsd: '60.00' });
  });

  it('rolls: a spend leaves the window after 24 h; another chain is not counted', async () => {
    const dir = home();
    let t = 5_000_000;
    const budget = openBudget(dir, { limitCents: 5000n, chain: 'mainnet', now: () => t });
    await budget.reserve(5000n);
    expect(await codeOf(budget.check(1n))).toBe('BUDGET_EXCEEDED');
    const other = openBudget(dir, { limitCents: 5000n, chain: 'sandbox:x', now: () => t });
    expect(await codeOf(other.check(5000n))).toBe('ok');
    t += BUDGET_WINDOW_MS;
    expect((await budget.status()).leftCents).toBe(5000n);
    expect(await codeOf(budget.reserve(5000n))).toBe('ok');
  });

  it('a released reservation (nothing left the client) is not counted', async () => {
    const dir = home();
    const budget = openBudget(dir, { limitCents: 1000n, chain: 'mainnet' });
    const r = await budget.reserve(1000n);
    expect((await budget.status()).leftCents).toBe(0n);
    await r.release();
    expect((await budget.status()).spentCents).toBe(0n);
    const file = JSON.parse(readFileSync(join(dir, BUDGET_FILE), 'utf8')) as { spends: unknown[] };
    expect(file.spends).toEqual([]);
  });

  it('fails closed: a record that does not parse or is not a budget refuses every spend (CONFIG_ERROR) and is left in place', async () => {
    const dir = home();
    const budget = openBudget(dir, { limitCents: 1_000_000n, chain: 'mainnet' });
    for (const text of [
      '{not json',
      '{"version":1,"spends":[{"id":"x","at":1,"cents":"-5","chain":"mainnet"}]}',
      '[]',
    ]) {
      writeFileSync(join(dir, BUDGET_FILE), text);
      expect(await codeOf(budget.reserve(1n))).toBe('CONFIG_ERROR');
      expect(await codeOf(budget.status())).toBe('CONFIG_ERROR');
      expect(readFileSync(join(dir, BUDGET_FILE), 'utf8')).toBe(text);
    }
  });
});
