/**
 * Fault injection shared by every emulator: added latency, "the next N requests fail" with an
 * HTTP status or a dropped connection, "requests after the next N wait until released" (so a test
 * acts between two requests of one client whatever the machine's speed: docs/decisions.md "A test
 * acts between two requests by holding them, not by racing a delay"), and "the answer to the next
 * N requests is lost": the request is handled (a paymaster relays the transaction) and then the
 * connection is dropped or never answered (docs/architecture.md "Headless output",
 * SUBMITTED_UNCONFIRMED). Set through constructor options or, at run time, through the
 * sandbox-only admin route `POST /sandbox/faults` (never exposed by our server).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import * as Type from 'typebox';
import { LATENCY_MAX_MS } from './fault-bounds.js';

export interface FaultSettings {
  /** added to every request except /sandbox/* admin calls */
  latencyMs?: number;
  /** the next `count` requests fail: with `status` (JSON error body) or by dropping the socket */
  failNext?: { count: number; status?: number; drop?: boolean };
  /**
   * the next `count` requests (of JSON-RPC `method` when given) are handled, then their answer is
   * lost: `drop` closes the connection, `hang` never answers (until the client gives up)
   */
  loseAnswer?: { count: number; method?: string; mode?: 'drop' | 'hang' };
  /**
   * answer every JSON-RPC batch (a JSON array body) with HTTP 400 and one "Invalid Request"
   * error, as a node that takes no batches does: clients must fall back to single requests
   */
  refuseBatches?: boolean;
  /**
   * the next `holdAfter` requests pass; every later one waits, unhandled, until `releaseHeld` or
   * the emulator closes — at most HOLD_MAX (the plugin's `holdMax`) at once (later ones are answered 503), and a held
   * request whose client went away leaves the hold unhandled
   */
  holdAfter?: number;
  /** true: the hold ends, every held request goes on in arrival order (after holdAfter) */
  releaseHeld?: boolean;
}

/** held requests at once by default; the next one is answered 503 (the hold stays bounded) */
export const HOLD_MAX = 1_000;

class FaultState {
  latencyMs = 0;
  failCount = 0;
  failStatus = 500;
  failDrop = false;
  loseCount = 0;
  loseMethod: string | undefined = undefined;
  loseMode: 'drop' | 'hang' = 'drop';
  /** answers lost so far (the requests were handled) */
  lost = 0;
  /** requests seen (admin calls excluded): lets tests count upstream calls */
  requests = 0;
  refuseBatches = false;
  /** batches refused so far */
  refusedBatches = 0;
  /** requests still to pass before the hold (undefined: no hold) */
  holdLeft: number | undefined = undefined;
  /** the held requests' go-aheads, in arrival order (a Set iterates in insertion order) */
  held = new Set<() => void>();

  /** held requests at once (HOLD_MAX unless the plugin is given another) */
  readonly holdMax: number;

  constructor(initial: FaultSettings = {}, holdMax = HOLD_MAX) {
    this.holdMax = holdMax;
    this.apply(initial);
  }

  apply(settings: FaultSettings): void {
    if (settings.latencyMs !== undefined) this.latencyMs = settings.latencyMs;
    if (settings.refuseBatches !== undefined) this.refuseBatches = settings.refuseBatches;
    if (settings.holdAfter !== undefined) this.holdLeft = settings.holdAfter;
    if (settings.releaseHeld === true) this.release();
    if (settings.failNext !== undefined) {
      this.failCount = settings.failNext.count;
      this.failStatus = settings.failNext.status ?? 500;
      this.failDrop = settings.failNext.drop === true;
    }
    if (settings.loseAnswer !== undefined) {
      this.loseCount = settings.loseAnswer.count;
      this.loseMethod = settings.loseAnswer.method;
      this.loseMode = settings.loseAnswer.mode ?? 'drop';
    }
  }

  /**
   * Resolves when this request may go on: 'pass' at once or once the hold is released; 'full' when
   * `holdMax` requests are held already; 'gone' when its connection closed while it was held (it
   * leaves the hold then, and is not to be handled).
   */
  async passHold(connection: NodeJS.EventEmitter): Promise<'pass' | 'full' | 'gone'> {
    if (this.holdLeft === undefined) return 'pass';
    if (this.holdLeft > 0) {
      this.holdLeft -= 1;
      return 'pass';
    }
    if (this.held.size >= this.holdMax) return 'full';
    return new Promise((resolve) => {
      const go = (): void => {
        connection.off('close', gone);
        resolve('pass');
      };
      const gone = (): void => {
        this.held.delete(go);
        resolve('gone');
      };
      this.held.add(go);
      connection.once('close', gone);
    });
  }

  /** Ends the hold: every held request goes on, in arrival order. */
  release(): void {
    this.holdLeft = undefined;
    const held = [...this.held];
    this.held.clear();
    for (const go of held) go();
  }

  /** Whether this handled request's answer is to be lost (counts it down). */
  takeLoss(body: unknown): boolean {
    if (this.loseCount <= 0) return false;
    const method =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as { method?: unknown }).method
        : undefined;
    if (this.loseMethod !== undefined && method !== this.loseMethod) return false;
    this.loseCount -= 1;
    this.lost += 1;
    return true;
  }
}

const FaultBody = Type.Object(
  {
    latencyMs: Type.Optional(Type.Integer({ minimum: 0, maximum: LATENCY_MAX_MS })),
    failNext: Type.Optional(
      Type.Object({
        count: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
        status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
        drop: Type.Optional(Type.Boolean()),
      }),
    ),
    loseAnswer: Type.Optional(
      Type.Object(
        {
          count: Type.Integer({ minimum: 0, maximum: 1_000 }),
          method: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          mode: Type.Optional(Type.Union([Type.Literal('drop'), Type.Literal('hang')])),
        },
        { additionalProperties: false },
      ),
    ),
    refuseBatches: Type.Optional(Type.Boolean()),
    holdAfter: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    releaseHeld: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

declare module 'fastify' {
  interface FastifyInstance {
    faults: FaultState;
  }
}

const isAdmin = (request: FastifyRequest): boolean => request.url.startsWith('/sandbox/');

async function faultsPlugin(
  app: FastifyInstance,
  options: { initial?: FaultSettings; holdMax?: number },
): Promise<void> {
  const state = new FaultState(options.initial, options.holdMax);
  app.decorate('faults', state);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (isAdmin(request)) return;
    state.requests += 1;
    // "The next N requests" in arrival order: decided before the injected latency, so a request
    // that arrived earlier (and was perhaps abandoned by its client) cannot wake up later and take
    // a failure meant for a request that arrives after the knob was set.
    const fail = state.failCount > 0;
    if (fail) state.failCount -= 1;
    const hold = await state.passHold(request.raw.socket);
    if (hold === 'gone') return reply.hijack();
    if (hold === 'full')
      return reply.code(503).send({ error: 'hold full', code: 'injected_fault' });
    // unref'd: a pending injected delay never keeps a closed emulator's process alive
    if (state.latencyMs > 0)
      await new Promise((resolve) => setTimeout(resolve, state.latencyMs).unref());
    if (fail) {
      if (state.failDrop) {
        request.raw.socket.destroy();
        return reply.hijack();
      }
      return reply.code(state.failStatus).send({ error: 'injected fault', code: 'injected_fault' });
    }
  });

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (isAdmin(request) || !state.refuseBatches || !Array.isArray(request.body)) return;
    state.refusedBatches += 1;
    return reply.code(400).send({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request', data: 'batches are not accepted here' },
    });
  });

  // after the handler ran: the work is done, only its answer goes missing
  app.addHook('onSend', async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    if (isAdmin(request) || !state.takeLoss(request.body)) return payload;
    const socket = request.raw.socket;
    if (state.loseMode === 'hang') {
      // held until the client gives up (or 10 min); unref'd so it never keeps the process alive
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        setTimeout(resolve, 600_000).unref();
      });
    }
    socket.destroy();
    return payload;
  });

  // a held request never keeps the emulator from closing
  app.addHook('preClose', async () => state.release());

  app.post('/sandbox/faults', { schema: { body: FaultBody } }, async (request) => {
    state.apply(request.body as FaultSettings);
    return {
      latencyMs: state.latencyMs,
      failNext: { count: state.failCount, status: state.failStatus, drop: state.failDrop },
      loseAnswer: {
        count: state.loseCount,
        method: state.loseMethod ?? null,
        mode: state.loseMode,
      },
      refuseBatches: state.refuseBatches,
      holdAfter: state.holdLeft ?? null,
    };
  });
  app.get('/sandbox/faults', async () => ({
    latencyMs: state.latencyMs,
    failCount: state.failCount,
    requests: state.requests,
    lostAnswers: state.lost,
    refusedBatches: state.refusedBatches,
    held: state.held.size,
  }));
}

export const faults = fp(faultsPlugin, { name: 'faults', fastify: '5.x' });
