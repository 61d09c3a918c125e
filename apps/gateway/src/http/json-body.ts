import type { FastifyInstance } from 'fastify';
import { DomainError } from '@cairn/contracts';

const JSON_TYPE = /^application\/(.+\+)?json/i;

/**
 * JSON bodies: an empty body is "no body" (clients send `Content-Type: application/json` on bodiless PUT/DELETE),
 * and an unparsable one answers 400 saying so.
 */
export function registerJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  // Nest registers its own `application/json` parser at init (an exact type wins over the pattern below), and it
  // refuses an empty body. A request that announces JSON but carries no bytes (Gitea's Go SDK sends
  // `Content-Type: application/json` on bodiless PUT/DELETE) has no body to parse: drop the type before parsing.
  fastify.addHook('onRequest', (req, _reply, done) => {
    const type = req.headers['content-type'];
    if (type !== undefined && JSON_TYPE.test(type) && req.headers['transfer-encoding'] === undefined) {
      const length = req.headers['content-length'];
      if (length === undefined || length.trim() === '0') delete req.headers['content-type'];
    }
    done();
  });
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    JSON_TYPE,
    { parseAs: 'string', bodyLimit },
    (_req, body: string, done) => {
      if (body.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(body));
      } catch (err) {
        done(DomainError.invalid(`invalid JSON body: ${(err as Error).message}`), undefined);
      }
    },
  );
}
