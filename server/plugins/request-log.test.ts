import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyRequest } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { asyncLog } from '../app.js';
import requestLogPlugin, { msFromNs, RequestLineController } from './request-log.js';

/** A destination collecting lines, as the app's destination gets them. */
function capture(): { destination: pino.DestinationStream; lines: string[] } {
  const lines: string[] = [];
  return { destination: { write: (line: string) => void lines.push(line) }, lines };
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
    // the server's base fields (pino's default ones), and the sandbox's
    const bases: Array<Record<string, string | number | boolean>> = [
      { pid: process.pid, hostname: hostname() },
      { pid: process.pid, sandbox: true },
    ];
    for (const base of bases) {
      const { destination, lines } = capture();
      const controller = new RequestLineController({ level: 'info', base, destination });
      // pino's own line, from a logger of the same options (no base option: pino's default)
      const logger = pino(base.sandbox === true ? { base } : {}, destination);
      controller.known.add('/auth/login');
      const fake = fakeRequest(request);
      controller.writeLine(fake, status, time);
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
    const { destination, lines } = capture();
    new RequestLineController({
      level: 'warn',
      base: { pid: process.pid },
      destination,
    }).writeLine(fakeRequest({ id: 'r-4', url: '/health', route: '/health' }), 200, 1);
    expect(lines).toEqual([]);
  });
});

describe('one line a request', () => {
  it("with an onResponse hook, which turns on Fastify's own completion call, still one line", async () => {
    const { destination, lines } = capture();
    const controller = new RequestLineController({ level: 'info', base: {}, destination });
    const app = Fastify({ logController: controller });
    await app.register(requestLogPlugin, { controller });
    let responded = 0;
    app.addHook('onResponse', async () => {
      responded += 1;
    });
    app.get('/health', async () => ({ status: 'ok' }));
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    await app.close();
    expect(responded).toBe(1);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      url: '/health',
      statusCode: 200,
      msg: 'request',
    });
  });
});

describe('msFromNs, the response time as the line prints it', () => {
  it('is the text JSON gives ns / 1e6, for durations from 0 to 12 days', () => {
    const cases = [0, 1, 9, 10, 999_999, 1_000_000, 1_000_001, 1_500_000, 575_539, 10 ** 15 - 1];
    // magnitudes from nanoseconds to days, each with thousands of random values
    for (let exponent = 0; exponent < 15; exponent++)
      for (let i = 0; i < 2_000; i++) cases.push(Math.floor(Math.random() * 10 ** (exponent + 1)));
    for (const ns of cases) {
      const text = msFromNs(ns);
      if (text !== JSON.stringify(ns / 1e6))
        expect(text, `ns ${ns}`).toBe(JSON.stringify(ns / 1e6));
    }
    expect(msFromNs(575_539)).toBe('0.575539');
    expect(msFromNs(1_500_000)).toBe('1.5');
    expect(msFromNs(3_000_000)).toBe('3');
  });
});

describe('asyncLog, the destination both loggers write to', () => {
  it('delivers pino lines and hand-written ones whole, as UTF-8 bytes, in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'async-log-'));
    try {
      const file = join(dir, 'server.log');
      const fd = openSync(file, 'w', 0o600);
      const destination = asyncLog(fd);
      const controller = new RequestLineController({
        level: 'info',
        base: { pid: process.pid, sandbox: true },
        destination,
      });
      const logger = pino({ base: { pid: process.pid, sandbox: true } }, destination);
      logger.info({ note: 'naïve café ✓' }, 'first');
      controller.writeLine(
        fakeRequest({ id: 'r-5', url: '/health', route: '/health', ip: '127.0.0.1' }),
        200,
        1,
      );
      controller.lines.info('third — ünïcode');
      // nothing is written before a flush: 32 KB have not gathered
      await new Promise<void>((resolve, reject) =>
        destination.flush((error) => (error ? reject(error) : resolve())),
      );
      // the stream closes its descriptor itself: closing it here under its periodic flush was an
      // EBADF write in a later test
      await new Promise<void>((resolve) => {
        destination.on('close', () => resolve());
        destination.end();
      });
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
        'first',
        'request',
        'third — ünïcode',
      ]);
      expect(JSON.parse(lines[0] as string)).toMatchObject({ note: 'naïve café ✓', sandbox: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
