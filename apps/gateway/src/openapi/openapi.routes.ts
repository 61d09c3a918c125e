import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the API description at `/swagger.v1.json` (Gitea's path). The file is generated from the code by
 * `npm run openapi` and committed; CI fails when it is stale, so what is served is what the code does.
 */
export function registerOpenApiRoute(fastify: FastifyInstance, rootUrl: string): void {
  const file = resolve(dirname(fileURLToPath(import.meta.url)), '../../openapi/swagger.v1.json');
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const host = new URL(rootUrl);
  const served = JSON.stringify({ ...doc, host: host.host, schemes: [host.protocol.replace(':', '')] });
  fastify.get('/swagger.v1.json', async (_req, reply) => reply.type('application/json').send(served));
}
