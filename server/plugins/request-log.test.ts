import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { RequestLineController } from './request-log.js';

/** A logger writing into an array, as the app's request-line logger writes to its destination. */
function capture(options: pino.LoggerOptions = {}): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: pino(options, { write: (line: string) => void lines.push(line) }), lines };
}

function fakeRequest(fields: {
  id: string;
  url: string;
  route?: string;
  ip?: string;
  errorCode?: string;
}): FastifyRequest {
  return {
    id: fields.id,
    method: 'POST',
    url: fields.url,
    is404: fields.route === undefined,
    routeOptions: { url: fields.route },
    ip: fields.ip,
    errorCode: fields.errorCode ?? null,
  } as unknown as FastifyRequest;
}

const withoutTime = (line: string | undefined): string =>
  (line ?? '').replace(/"time":[0-9]+/, '"time":0');

describe('the hand-written request line', () => {
  it.each([
    {
      name: 'a matched route',
      request: { id: 'r-1', url: '/sign/hash?x=1', route: '/sign/hash', ip: '127.0.0.1' },
      status: 200,
      time: 1.2345678,
    },
    {
      name: 'an unknown path with an error code',
      request: { id: 'r-2', url: '/auth/eyJabc', ip: '::1', errorCode: 'NOT_FOUND' },
      status: 404,
      time: 0.5,
    },
    {
      name: 'no client address (socket gone)',
      request: { id: 'r-3', url: '/health', route: '/health' },
      status: 200,
      time: 3,
    },
  ])('is the line pino writes for the same fields: $name', ({ request, status, time }) => {
    for (const options of [{}, { base: { pid: process.pid, sandbox: true } }]) {
      const { logger, lines } = capture(options);
      const controller = new RequestLineController(logger);
      controller.known.add('/auth/login');
      const fake = fakeRequest(request);
      controller.requestCompleted(null, fake, {
        statusCode: status,
        elapsedTime: time,
      } as unknown as FastifyReply);
      logger.info(
        {
          reqId: request.id,
          method: 'POST',
          url: request.route ?? controller.known.label(request.url),
          remoteAddress: request.ip,
          statusCode: status,
          responseTime: time,
          ...(request.errorCode === undefined ? {} : { errorCode: request.errorCode }),
        },
        'request',
      );
      expect(lines).toHaveLength(2);
      expect(withoutTime(lines[0])).toBe(withoutTime(lines[1]));
      expect(lines[0]).not.toContain('eyJ');
      JSON.parse(lines[0] as string);
    }
  });

  it('is not written when the level is above info', () => {
    const { logger, lines } = capture({ level: 'warn' });
    new RequestLineController(logger).requestCompleted(
      null,
      fakeRequest({ id: 'r-4', url: '/health', route: '/health' }),
      {
        statusCode: 200,
        elapsedTime: 1,
      } as unknown as FastifyReply,
    );
    expect(lines).toEqual([]);
  });
});
