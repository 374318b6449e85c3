import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { describeError } from './errors.js';
import { createRequestIdGenerator, isSaneRequestId } from './request-id.js';

const fastifyError = (code: string, statusCode: number, message = 'msg') =>
  Object.assign(new Error(message), { code, statusCode });

describe('describeError', () => {
  it.each([
    {
      description: 'AppError keeps status and code',
      error: new AppError('WALLET_MISMATCH', 'no', { status: 403 }),
      status: 403,
      code: 'WALLET_MISMATCH',
    },
    {
      description: 'validation',
      error: Object.assign(fastifyError('FST_ERR_VALIDATION', 400, 'body/email must match'), {
        validation: [],
      }),
      status: 400,
      code: 'VALIDATION_ERROR',
    },
    {
      description: 'body too large',
      error: fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413),
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    },
    {
      description: 'media type',
      error: fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415),
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
    },
    {
      description: 'invalid JSON',
      error: fastifyError('FST_ERR_CTP_INVALID_JSON_BODY', 400),
      status: 400,
      code: 'VALIDATION_ERROR',
    },
    {
      description: 'SyntaxError from the parser',
      error: Object.assign(new SyntaxError('Unexpected token s in "secret"'), { statusCode: 400 }),
      status: 400,
      code: 'VALIDATION_ERROR',
    },
    {
      description: 'a SyntaxError of our own (BigInt of bad text): a bug, not the body',
      error: new SyntaxError('Cannot convert zz to a BigInt'),
      status: 500,
      code: 'INTERNAL_ERROR',
    },
    {
      description: 'another Fastify 4xx',
      error: fastifyError('FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400),
      status: 400,
      code: 'VALIDATION_ERROR',
    },
    { description: 'a plain Error', error: new Error('boom'), status: 500, code: 'INTERNAL_ERROR' },
    { description: 'a thrown string', error: 'boom', status: 500, code: 'INTERNAL_ERROR' },
  ])('$description → $status $code', ({ error, status, code }) => {
    const described = describeError(error);
    expect(described).toMatchObject({ status, code });
  });

  it('hides internals unless asked to expose them, and never quotes a JSON body', () => {
    expect(describeError(new Error('db password wrong')).message).not.toContain('password');
    expect(
      describeError(new Error('db password wrong'), { exposeInternals: false }).message,
    ).not.toContain('password');
    expect(
      describeError(new Error('db password wrong'), { exposeInternals: true }).message,
    ).toContain('db password wrong');
    expect(
      describeError(Object.assign(new SyntaxError('Unexpected "123456"'), { statusCode: 400 }), {
        exposeInternals: true,
      }).message,
    ).not.toContain('123456');
  });
});

describe('request ids', () => {
  it.each([
    ['abc', true],
    ['a'.repeat(128), true],
    ['a'.repeat(129), false],
    ['', false],
    ['a b', false],
    ['a\nb', false],
    [['a', 'b'], false],
    [undefined, false],
  ] as const)('%j sane: %s', (value, sane) => {
    expect(isSaneRequestId(value)).toBe(sane);
    const generate = createRequestIdGenerator(() => 'fresh');
    const id = generate({ headers: { 'x-request-id': value } } as never);
    expect(id).toBe(sane ? value : 'fresh');
  });
});
