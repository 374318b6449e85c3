/** GET / (who we are) and GET /health (liveness probe the client polls before spawning a server). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HealthResponse, RootResponse } from '../../shared/api.js';

export interface RootRoutesOptions {
  version: string;
  sandbox: boolean;
}

const rootRoutes: FastifyPluginAsyncTypebox<RootRoutesOptions> = async (fastify, options) => {
  fastify.get('/', { schema: { response: { 200: RootResponse } } }, async () => ({
    name: 'finance-tui-auth',
    version: options.version,
    status: 'ok' as const,
    ...(options.sandbox ? { sandbox: true as const } : {}),
  }));

  fastify.get('/health', { schema: { response: { 200: HealthResponse } } }, async () => ({
    status: 'ok' as const,
  }));
};

export default rootRoutes;
