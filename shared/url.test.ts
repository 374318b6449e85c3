import { describe, expect, it } from 'vitest';
import {
  isHttpUrl,
  isLoopbackUrl,
  isPrivateServiceUrl,
  privateServiceUrlProblem,
  refusedUrl,
} from './url.js';

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
    ['http://[::ffff:127.0.0.1]', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected);
  });
});

describe('a URL the client sends a token or data to: https, or http to this machine only', () => {
  it.each([
    ['https://auth.example.com', true],
    ['https://192.0.2.1:3001', true],
    ['http://127.0.0.1:3001', true],
    ['http://localhost:3001', true],
    ['http://[::1]:8545/rpc', true],
    ['http://192.0.2.1:3001', false],
    ['http://0.0.0.0:3001', false],
    ['http://auth.example.com', false],
    ['http://localhost.example.com', false],
    ['ftp://127.0.0.1', false],
  ])('%s → %s', (url, expected) => {
    expect(isPrivateServiceUrl(url)).toBe(expected);
    expect(privateServiceUrlProblem(url, 'X') === undefined).toBe(expected);
  });

  it('the refusal says https is required and why, naming neither host nor key', () => {
    const message = privateServiceUrlProblem('http://192.0.2.1:3001/?k=sk-2', 'SERVER');
    expect(message).toMatch(
      /SERVER must be an https URL: plain http is allowed only to this machine/,
    );
    expect(message).not.toMatch(/192\.0\.2\.1|sk-2/);
  });

  it('a user name or password is refused anywhere, a query or fragment where the client adds paths; the refusal repeats neither', () => {
    const withPassword = privateServiceUrlProblem('https://user:sk-1@example.com/', 'SERVER');
    expect(withPassword).toBe('SERVER must not carry a user name or password');
    const appended = { appendsPaths: true };
    for (const url of ['https://example.com/agg?api_key=sk-2', 'https://example.com/#sk-2'])
      expect(privateServiceUrlProblem(url, 'AGG', appended)).toMatch(
        /^AGG must not carry a query or fragment/,
      );
    // a node's URL is used as it is: its query stays allowed
    expect(privateServiceUrlProblem('https://example.com/rpc?key=sk-3', 'RPC')).toBeUndefined();
  });
});
