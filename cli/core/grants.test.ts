/** The grant commands' pure parts: durations, daily amounts, the grant file. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempHome } from '../../test/helpers/home.js';
import { parseDaily, parseDuration, readGrantFile } from './grants.js';

describe('grant inputs', () => {
  it('durations: s, m, h, d up to 90 days; anything else is a usage error', () => {
    expect(parseDuration('90s')).toBe(90);
    expect(parseDuration('24h')).toBe(86_400);
    expect(parseDuration('90d')).toBe(90 * 86_400);
    for (const bad of ['', '0h', '1.5h', '24', 'h', '-1d', '91d'])
      expect(() => parseDuration(bad), bad).toThrow(
        expect.objectContaining({ code: 'USAGE_ERROR' }),
      );
  });

  it('"AMOUNT TOKEN" in exact base units; a bad amount or token has its code', () => {
    expect(parseDaily('50 USDC', 'mainnet')).toEqual({
      token: '0x033068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb',
      amount: 50_000_000n,
    });
    expect(parseDaily(' 0.000000000000000001  ETH ', 'mainnet').amount).toBe(1n);
    expect(() => parseDaily('0.0000001 USDC', 'mainnet')).toThrow(
      expect.objectContaining({ code: 'INVALID_AMOUNT' }),
    );
    expect(() => parseDaily('5 NOPE', 'mainnet')).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_TOKEN' }),
    );
    expect(() => parseDaily('50', 'mainnet')).toThrow(
      expect.objectContaining({ code: 'USAGE_ERROR' }),
    );
  });

  it('a grant file that is missing or not one is CONFIG_ERROR naming the file, never its content', () => {
    const home = tempHome();
    try {
      const file = join(home.dir, 'grant.json');
      expect(() => readGrantFile(file)).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR' }));
      writeFileSync(file, '{"token": "ftg1.secret-looking-text"}');
      let message = '';
      try {
        readGrantFile(file);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain(file);
      expect(message).not.toContain('secret-looking');
    } finally {
      home.cleanup();
    }
  });
});
