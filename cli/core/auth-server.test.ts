import { describe, expect, it } from 'vitest';
import { isLoopbackUrl } from './auth-server.js';

describe('isLoopbackUrl', () => {
  it.each([
    ['http://127.0.0.1:3001', true],
    ['http://127.8.9.10', true],
    ['http://localhost:3001/', true],
    ['http://LOCALHOST', true],
    ['http://[::1]:3001', true],
    ['http://128.0.0.1', false],
    ['http://0.0.0.0:3001', false],
    ['http://192.0.2.2:3001', false],
    ['https://auth.example.com', false],
    ['http://localhost.example.com', false],
    ['http://127.0.0.1.nip.io', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected);
  });
});
