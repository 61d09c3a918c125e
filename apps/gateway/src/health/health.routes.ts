import type { FastifyInstance } from 'fastify';
import type { RpcClient } from '@cairn/platform';
import { checkServices } from './service-health.js';
import { metricsRegistry } from './metrics.js';

/**
 * `/healthz` (the process is up), `/readyz` (NATS and every service the API needs answer), `/metrics`
 * (Prometheus). Registered on Fastify directly: they sit outside `/api/v1`, need no auth, and must stay cheap.
 */
export function registerHealthRoutes(fastify: FastifyInstance, rpc: RpcClient): void {
  fastify.get('/healthz', async () => ({ status: 'ok' }));
  fastify.get('/readyz', async (_req, reply) => {
    const services = await checkServices(rpc);
    const ready = Object.values(services).every(Boolean);
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', services });
  });
  fastify.get('/metrics', async (_req, reply) => {
    reply.header('content-type', metricsRegistry.contentType);
    return metricsRegistry.metrics();
  });
}
