import type { INestApplicationContext } from '@nestjs/common';
import { COMMON_SETTINGS, JsonLogger, LazyRedis, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyInstance } from 'fastify';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../config/gateway-settings.js';
import { SessionStore } from './core/session-store.js';
import { registerStaticFiles } from './core/static-files.js';
import { createViews } from './core/views.js';
import { WebKit } from './core/web-kit.js';
import { WEB_AREAS } from './web-areas.js';

/** Static assets, then every area of {@link WEB_AREAS} in one scope with sessions, CSRF, layout and error pages. */
export function registerWebRoutes(fastify: FastifyInstance, app: INestApplicationContext): void {
  const rpc = app.get(RpcClient);
  const settings = app.get<GatewaySettings>(GATEWAY_SETTINGS);
  const common = app.get<CommonSettings>(COMMON_SETTINGS);
  const redis = new LazyRedis(common.redisUrl);
  fastify.addHook('onClose', () => redis.close());
  registerStaticFiles(fastify);
  void fastify.register(async (scope) => {
    // Forms post url-encoded bodies; only web routes (this scope) parse them — the API stays JSON-only.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body: string, done) => {
      // A repeated field (checkboxes of one name) keeps every value, in order; `ctx.formAll` reads them.
      const fields: Record<string, string | string[]> = {};
      for (const [key, value] of new URLSearchParams(body)) {
        const had = fields[key];
        fields[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
      }
      done(null, fields);
    });
    // A form with files (`enctype="multipart/form-data"`) stays unread: its page streams it (`core/multipart-form.ts`).
    scope.removeContentTypeParser('multipart/form-data');
    scope.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null, undefined));
    const web = new WebKit(scope, {
      rpc,
      settings,
      common,
      store: new SessionStore(redis, common.queuePrefix),
      redis,
      views: createViews(),
      logger: new JsonLogger('gateway-web'),
    });
    for (const register of WEB_AREAS) register(web);
    web.registerNotFoundPage();
  });
}
