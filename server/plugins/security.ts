/**
 * Secure response headers for a JSON API (helmet). The CSP is the strictest one: we never serve
 * HTML, so nothing should ever load or frame a response of ours.
 */
import helmet from '@fastify/helmet';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

const security: FastifyPluginAsync = async (fastify) => {
  await fastify.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Browsers at an allowed origin read us via CORS, which CORP does not restrict.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
};

export default fp(security, { name: 'security', fastify: '5.x' });
