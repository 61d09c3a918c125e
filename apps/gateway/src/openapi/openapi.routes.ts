import type { FastifyInstance } from 'fastify';
import { readCommittedDocument } from './openapi-files.js';

/**
 * Serves the API description at `/swagger.v1.json` (Gitea's path). The file is generated from the code by
 * `npm run openapi` and committed; CI fails when it is stale, so what is served is what the code does.
 */
export function registerOpenApiRoute(fastify: FastifyInstance, rootUrl: string): void {
  const doc = readCommittedDocument();
  const host = new URL(rootUrl);
  const served = JSON.stringify({ ...doc, host: host.host, schemes: [host.protocol.replace(':', '')] });
  fastify.get('/swagger.v1.json', async (_req, reply) => reply.type('application/json').send(served));
}
