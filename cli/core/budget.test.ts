import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { codeOf } from '../../test/helpers/failure.js';
import { tempHome } from '../../test/helpers/home.js';
import { BUDGET_FILE, BUDGET_WINDOW_MS, MAX_SPENDS, openBudget } from './budget.js';

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

  it('a spend of nothing is not recorded; a record full of spends inside the window refuses the next, never drops one', async () => {
    const dir = home();
    const t = 1_000_000;
    const budget = openBudget(dir, { limitCents: 100_00n, chain: 'sandbox:a', now: () => t });
    await budget.reserve(100_00n);
    await budget.reserve(0n);
    // a value below nothing is refused, never taken off what was spent
    expect(await codeOf(budget.reserve(-1n))).toBe('BUDGET_EXCEEDED');
    const spends = () =>
      (JSON.parse(readFileSync(join(dir, BUDGET_FILE), 'utf8')) as { spends: unknown[] }).spends;
    expect(spends()).toHaveLength(1);
    // as full as a record may be, the whole budget spent among its spends
    const full = Array.from({ length: MAX_SPENDS }, (_, i) => ({
      id: `s${i}`,
      at: t - i,
      cents: i === 0 ? '10000' : '0',
      chain: 'sandbox:a',
    }));
    writeFileSync(join(dir, BUDGET_FILE), JSON.stringify({ version: 1, spends: full }));
    expect(await codeOf(budget.reserve(1n))).toBe('BUDGET_EXCEEDED');
    const open = openBudget(dir, { limitCents: 200_00n, chain: 'sandbox:a', now: () => t });
    expect(await codeOf(open.reserve(1n))).toBe('BUDGET_EXCEEDED');
    expect(spends()).toHaveLength(MAX_SPENDS);
    expect((await open.status()).spentCents).toBe(100_00n);
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
