/**
 * The hold knob of sandbox/faults.ts (`holdAfter`): the next N requests pass, later ones wait
 * unhandled until released (`releaseHeld`) or the emulator closes (docs/sandbox-chain.md "Knobs").
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { faults, HOLD_MAX } from './faults.js';

const apps: FastifyInstance[] = [];

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** An emulator-like app: the faults plugin and one route that counts what it handled. */
async function build(holdMax?: number): Promise<{ app: FastifyInstance; handled: string[] }> {
  const app = Fastify();
  const handled: string[] = [];
  await app.register(faults, holdMax === undefined ? {} : { holdMax });
  app.post('/rpc', async (request) => {
    const { id } = request.body as { id: string };
    handled.push(id);
    return { id };
  });
  apps.push(app);
  return { app, handled };
}

const rpc = (app: FastifyInstance, id: string) =>
  app.inject({ method: 'POST', url: '/rpc', payload: { id } });
const knob = (app: FastifyInstance, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/sandbox/faults', payload: body });
const held = async (app: FastifyInstance): Promise<number> =>
  (await app.inject({ method: 'GET', url: '/sandbox/faults' })).json<{ held: number }>().held;

describe('faults: holdAfter', () => {
  it('the next N requests pass; later ones wait unhandled until released, then go on in arrival order', async () => {
    const { app, handled } = await build();
    const set = await knob(app, { holdAfter: 1 });
    expect(set.json()).toMatchObject({ holdAfter: 1 });
    expect((await rpc(app, 'a')).json()).toEqual({ id: 'a' });
    const b = rpc(app, 'b');
    const c = rpc(app, 'c');
    await vi.waitFor(async () => expect(await held(app)).toBe(2));
    // admin calls are never held
    expect((await app.inject({ method: 'GET', url: '/sandbox/faults' })).statusCode).toBe(200);
    expect(handled).toEqual(['a']);
    expect((await knob(app, { releaseHeld: true })).json()).toMatchObject({ holdAfter: null });
    expect((await b).json()).toEqual({ id: 'b' });
    expect((await c).json()).toEqual({ id: 'c' });
    expect(handled).toEqual(['a', 'b', 'c']);
    expect(await held(app)).toBe(0);
    // released: nothing is held any more
    expect((await rpc(app, 'd')).json()).toEqual({ id: 'd' });
  });

  it('holdAfter 0 holds the very next request; a bad value is refused', async () => {
    const { app, handled } = await build();
    expect((await knob(app, { holdAfter: -1 })).statusCode).toBe(400);
    expect((await knob(app, { holdAfter: 1.5 })).statusCode).toBe(400);
    await knob(app, { holdAfter: 0 });
    const a = rpc(app, 'a');
    await vi.waitFor(async () => expect(await held(app)).toBe(1));
    expect(handled).toEqual([]);
    await knob(app, { releaseHeld: true });
    expect((await a).json()).toEqual({ id: 'a' });
  });

  it('closing the emulator lets a held request go on: the close never waits on the hold', async () => {
    const { app, handled } = await build();
    await knob(app, { holdAfter: 0 });
    const a = rpc(app, 'a');
    await vi.waitFor(async () => expect(await held(app)).toBe(1));
    await app.close();
    await a;
    expect(handled).toEqual(['a']);
  });

  it('a held request whose client went away leaves the hold, and is never handled', async () => {
    const { app, handled } = await build();
    await app.listen({ host: '127.0.0.1', port: 0 });
    await knob(app, { holdAfter: 0 });
    const { port } = app.server.address() as AddressInfo;
    const sent = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/rpc' });
    sent.on('error', () => undefined);
    sent.setHeader('content-type', 'application/json');
    sent.end(JSON.stringify({ id: 'gone' }));
    await vi.waitFor(async () => expect(await held(app)).toBe(1));
    sent.destroy();
    await vi.waitFor(async () => expect(await held(app)).toBe(0));
    await knob(app, { releaseHeld: true });
    expect((await rpc(app, 'after')).json()).toEqual({ id: 'after' });
    expect(handled).toEqual(['after']);
  });

  it('holds at most holdMax at once: the next is answered 503, the held ones go on when released', async () => {
    expect(HOLD_MAX).toBe(1_000); // the emulators' bound (they pass no holdMax)
    const holdMax = 5;
    const { app, handled } = await build(holdMax);
    await knob(app, { holdAfter: 0 });
    const waiting = Array.from({ length: holdMax }, (_, i) => rpc(app, `h${i}`));
    await vi.waitFor(async () => expect(await held(app)).toBe(holdMax));
    const over = await rpc(app, 'over');
    expect(over.statusCode).toBe(503);
    expect(over.json()).toEqual({ error: 'hold full', code: 'injected_fault' });
    expect(handled).toEqual([]);
    await knob(app, { releaseHeld: true });
    const answers = await Promise.all(waiting);
    expect(answers.map((a) => a.json<{ id: string }>().id)).toEqual(
      Array.from({ length: holdMax }, (_, i) => `h${i}`),
    );
    expect(handled).toHaveLength(holdMax);
  });
});
