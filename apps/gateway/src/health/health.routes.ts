import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RpcClient } from '@cairn/platform';
import { checkServices } from './service-health.js';
import { metricsRegistry } from './metrics.js';

/** Who may read `/metrics`: Gitea's `[metrics] ENABLED` and `[metrics] TOKEN`. */
export interface MetricsAccess {
  enabled: boolean;
  token: string;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function presentsMetricsToken(req: FastifyRequest, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]), digest(token));
}

/** Registered on Fastify directly: outside `/api/v1`, and they must stay cheap. */
export function registerHealthRoutes(fastify: FastifyInstance, rpc: RpcClient, metrics: MetricsAccess): void {
  fastify.get('/healthz', async () => ({ status: 'ok' }));
  fastify.get('/readyz', async (_req, reply) => {
    const services = await checkServices(rpc);
    const ready = Object.values(services).every(Boolean);
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', services });
  });
  if (!metrics.enabled) return;
  fastify.get('/metrics', async (req, reply) => {
    if (metrics.token && !presentsMetricsToken(req, metrics.token)) {
      return reply.status(401).send({ message: 'metrics require Authorization: Bearer <[metrics] TOKEN>' });
    }
    reply.header('content-type', metricsRegistry.contentType);
    return metricsRegistry.metrics();
  });
}
