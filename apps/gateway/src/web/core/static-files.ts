import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { STATIC_DIR } from './views.js';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

/** Reads `web/static/` once (a few small files) and serves it at `/assets/<name>` (Gitea's prefix). */
export function registerStaticFiles(fastify: FastifyInstance): void {
  const files = new Map<string, StaticFile>();
  for (const name of readdirSync(STATIC_DIR)) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const body = readFileSync(path.join(STATIC_DIR, name));
    files.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
  }
  fastify.get<{ Params: { name: string } }>('/assets/:name', async (req, reply) => {
    const file = files.get(req.params.name);
    if (!file) return reply.status(404).type('text/plain; charset=utf-8').send('not found');
    reply
      .header('etag', file.etag)
      .header('cache-control', 'public, max-age=3600, must-revalidate')
      .header('x-content-type-options', 'nosniff');
    if (req.headers['if-none-match'] === file.etag) return reply.status(304).send();
    return reply.type(file.type).send(file.body);
  });
}
