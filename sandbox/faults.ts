/**
 * Fault injection shared by every emulator: added latency, and "the next N requests fail" with
 * an HTTP status or a dropped connection. Set through constructor options or, at run time,
 * through the sandbox-only admin route `POST /sandbox/faults` (never exposed by our server).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import Type from 'typebox';

export interface FaultSettings {
  /** added to every request except /sandbox/* admin calls */
  latencyMs?: number;
  /** the next `count` requests fail: with `status` (JSON error body) or by dropping the socket */
  failNext?: { count: number; status?: number; drop?: boolean };
}

export class FaultState {
  latencyMs = 0;
  failCount = 0;
  failStatus = 500;
  failDrop = false;
  /** requests seen (admin calls excluded): lets tests count upstream calls */
  requests = 0;

  constructor(initial: FaultSettings = {}) {
    this.apply(initial);
  }

  apply(settings: FaultSettings): void {
    if (settings.latencyMs !== undefined) this.latencyMs = settings.latencyMs;
    if (settings.failNext !== undefined) {
      this.failCount = settings.failNext.count;
      this.failStatus = settings.failNext.status ?? 500;
      this.failDrop = settings.failNext.drop === true;
    }
  }
}

const FaultBody = Type.Object(
  {
    latencyMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 120_000 })),
    failNext: Type.Optional(
      Type.Object({
        count: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
        status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
        drop: Type.Optional(Type.Boolean()),
      }),
    ),
  },
  { additionalProperties: false },
);

declare module 'fastify' {
  interface FastifyInstance {
    faults: FaultState;
  }
}

const isAdmin = (request: FastifyRequest): boolean => request.url.startsWith('/sandbox/');

async function faultsPlugin(app: FastifyInstance, options: { initial?: FaultSettings }): Promise<void> {
  const state = new FaultState(options.initial);
  app.decorate('faults', state);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (isAdmin(request)) return;
    state.requests += 1;
    // "The next N requests" in arrival order: decided before the injected latency, so a request
    // that arrived earlier (and was perhaps abandoned by its client) cannot wake up later and take
    // a failure meant for a request that arrives after the knob was set.
    const fail = state.failCount > 0;
    if (fail) state.failCount -= 1;
    // unref'd: a pending injected delay never keeps a closed emulator's process alive
    if (state.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, state.latencyMs).unref());
    if (fail) {
      if (state.failDrop) {
        request.raw.socket.destroy();
        return reply.hijack();
      }
      return reply.code(state.failStatus).send({ error: 'injected fault', code: 'injected_fault' });
    }
  });

  app.post('/sandbox/faults', { schema: { body: FaultBody } }, async (request) => {
    state.apply(request.body as FaultSettings);
    return { latencyMs: state.latencyMs, failNext: { count: state.failCount, status: state.failStatus, drop: state.failDrop } };
  });
  app.get('/sandbox/faults', async () => ({ latencyMs: state.latencyMs, failCount: state.failCount, requests: state.requests }));
}

export const faults = fp(faultsPlugin, { name: 'faults', fastify: '5.x' });
