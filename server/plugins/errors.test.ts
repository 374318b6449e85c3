import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { describeError, HTTP_STATUS, httpStatusOf } from './errors.js';
import { createRequestIdGenerator, isSaneRequestId } from './request-id.js';

const fastifyError = (code: string, statusCode: number, message = 'msg') =>
  Object.assign(new Error(message), { code, statusCode });

describe('describeError', () => {
  it.each([
    {
      description: "AppError: its code, at the code's status",
      error: new AppError('WALLET_MISMATCH', 'no'),
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

describe('HTTP_STATUS: the one map from code to status', () => {
  const codes = Object.values(ErrorCode);

  it('has a 4xx or 5xx status for every code, and nothing else', () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...codes].sort());
    for (const code of codes) {
      expect(Number.isInteger(HTTP_STATUS[code]), code).toBe(true);
      expect(HTTP_STATUS[code], code).toBeGreaterThanOrEqual(400);
      expect(HTTP_STATUS[code], code).toBeLessThan(600);
    }
  });

  // the wire contract (docs/architecture.md "Auth server contract"): a change here changes what
  // clients see
  it.each([
    [400, ['VALIDATION_ERROR', 'MALFORMED_REQUEST']],
    [
      401,
      [
        'UNAUTHORIZED',
        'TOKEN_EXPIRED',
        'TOKEN_REVOKED',
        'INVALID_OTP',
        'GRANT_EXPIRED',
        'GRANT_REVOKED',
      ],
    ],
    [
      403,
      [
        'FORBIDDEN',
        'WALLET_MISMATCH',
        'EMAIL_MISMATCH',
        'SPONSORED_DISABLED',
        'GRANT_EXCEEDED',
        'GRANT_RECIPIENT_NOT_ALLOWED',
        'GRANT_CALL_NOT_ALLOWED',
        'GRANT_FORBIDDEN',
      ],
    ],
    [404, ['NOT_FOUND', 'GRANT_NOT_FOUND']],
    [405, ['METHOD_NOT_ALLOWED']],
    [408, ['REQUEST_TIMEOUT']],
    [409, ['WALLET_EXISTS', 'PROVISIONING_IN_PROGRESS', 'GRANT_LIMIT_REACHED']],
    [413, ['PAYLOAD_TOO_LARGE']],
    [415, ['UNSUPPORTED_MEDIA_TYPE']],
    [429, ['RATE_LIMITED', 'SPONSORED_LIMIT_REACHED']],
    [431, ['HEADERS_TOO_LARGE']],
    [502, ['IDENTITY_PROVIDER_ERROR', 'PAYMASTER_ERROR']],
    [503, ['REVOCATION_UNAVAILABLE', 'DEPENDENCY_UNAVAILABLE']],
    [504, ['UPSTREAM_TIMEOUT']],
  ] as const)('%i is exactly %j', (status, expected) => {
    expect(codes.filter((code) => HTTP_STATUS[code] === status).sort()).toEqual(
      [...expected].sort(),
    );
  });

  it('every other code is 500: a bug if it reaches the handler, logged with its stack', () => {
    const clientCodes = [ErrorCode.INVALID_AMOUNT, ErrorCode.CANCELLED, ErrorCode.SESSION_EXPIRED];
    for (const code of clientCodes) {
      expect(describeError(new AppError(code, 'client only'))).toMatchObject({
        status: 500,
        code,
        unexpected: true,
      });
    }
    expect(describeError(new AppError(ErrorCode.WALLET_EXISTS, 'taken')).unexpected).toBe(false);
    expect(describeError(new AppError(ErrorCode.PAYMASTER_ERROR, 'down')).unexpected).toBe(false);
  });

  it('fails closed: a code outside ErrorCode (a cast) is 500', () => {
    expect(httpStatusOf('TEAPOT' as ErrorCode)).toBe(500);
    expect(httpStatusOf('__proto__' as ErrorCode)).toBe(500);
    expect(describeError(new AppError('TEAPOT' as ErrorCode, 'short and stout'))).toMatchObject({
      status: 500,
      unexpected: true,
    });
  });

  it.each([401, 403, 404, 405, 413, 415, 429])(
    'a Fastify %i becomes a code whose status is that status',
    (status) => {
      const described = describeError(fastifyError('FST_ERR_SOMETHING', status));
      expect(described.status).toBe(status);
      expect(HTTP_STATUS[described.code]).toBe(status);
    },
  );
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
