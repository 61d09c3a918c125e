import type { INestApplicationContext } from '@nestjs/common';
import { COMMON_SETTINGS, LazyRedis, RpcClient, type CommonSettings } from '@cairn/platform';
import type { FastifyInstance } from 'fastify';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../config/gateway-settings.js';
import { CredentialsWebHost } from './pulls/credentials-web-host.js';
import { PullUpdateTracker } from './pulls/pull-update.tracker.js';
import { PullsPages } from './pulls/pulls.pages.js';

/** The web pages the gateway serves outside `/api/v1`, one line per area. */
export function registerWebRoutes(fastify: FastifyInstance, app: INestApplicationContext): void {
  const rpc = app.get(RpcClient);
  const settings = app.get<GatewaySettings>(GATEWAY_SETTINGS);
  const common = app.get<CommonSettings>(COMMON_SETTINGS);
  const redis = new LazyRedis(common.redisUrl);
  fastify.addHook('onClose', async () => redis.close());
  new PullsPages(rpc, settings, new CredentialsWebHost(rpc, settings), new PullUpdateTracker(() => redis.client, common.queuePrefix)).register(fastify);
}
