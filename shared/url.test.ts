import { describe, expect, it } from 'vitest';
import { isHttpUrl, refusedUrl } from './url.js';

describe('service URLs', () => {
  it.each([
    ['http://127.0.0.1:3001', true],
    ['https://api.example.com/v1', true],
    ['ftp://files.example.com', false],
    ['ws://node', false],
    ['api.example.com', false],
    ['', false],
  ])('%s is an http(s) URL: %s', (value, expected) => {
    expect(isHttpUrl(value)).toBe(expected);
  });

  it('a refused URL is named by its scheme only: no userinfo, host, path or query reaches a message', () => {
    expect(refusedUrl('ftp://user:hunter2@host.example/p?key=sk-123')).toBe('a ftp: URL');
    expect(refusedUrl('sk-123 not a url')).toBe('something that is not a URL');
    expect(refusedUrl(`${'x'.repeat(40)}://host`)).toBe('a URL of another scheme');
  });
});
