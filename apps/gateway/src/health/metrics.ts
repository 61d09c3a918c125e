import { collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import { gatewayHttpMetrics, httpRequestDuration, httpRequests } from '@cairn/platform';

export const metricsRegistry = gatewayHttpMetrics;
collectDefaultMetrics({ register: metricsRegistry, prefix: 'cairn_gateway_' });

/** Records every response; the route label is the pattern (never the raw URL: unbounded cardinality). */
export function instrument(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions?.url ?? 'unmatched';
    httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    httpRequestDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    done();
  });
}
