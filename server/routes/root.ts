/**
 * GET / (who we are) and GET /health (liveness probe the client polls before spawning a server).
 * /health is 200 `{status: "ok"}` while every store the server was configured with answers, else
 * 503 `{status: "degraded", unavailable: [...]}` (a REDIS_URL that does not answer: the requests
 * that need it are refused with 503 DEPENDENCY_UNAVAILABLE). It reads a connection's state, never
 * asks Redis: a probe costs no round trip.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DegradedHealthResponse, HealthResponse, RootResponse } from '../../shared/api.js';

interface RootRoutesOptions {
  version: string;
  sandbox: boolean;
  /** the stores that do not answer now (none: healthy) */
  unavailable: () => Array<'redis'>;
}

const rootRoutes: FastifyPluginAsyncTypebox<RootRoutesOptions> = async (fastify, options) => {
  fastify.get('/', { schema: { response: { 200: RootResponse } } }, async () => ({
    name: 'finance-tui-auth',
    version: options.version,
    status: 'ok' as const,
    ...(options.sandbox ? { sandbox: true as const } : {}),
  }));

  fastify.get(
    '/health',
    { schema: { response: { 200: HealthResponse, 503: DegradedHealthResponse } } },
    async (_request, reply) => {
      const unavailable = options.unavailable();
      if (unavailable.length === 0) return { status: 'ok' as const };
      return reply.code(503).send({ status: 'degraded' as const, unavailable });
    },
  );
};

export default rootRoutes;
