/** @cairn/platform: what every Cairn app shares (configuration, logging, RPC, events, bootstrap, the git environment). */
export * from './config/ini.js';
export * from './config/settings.js';
export * from './logging/correlation.js';
export * from './logging/logger.js';
export * from './rpc/rpc-client.js';
export * from './rpc/domain-error.filter.js';
export * from './rpc/validation.js';
export * from './rpc/correlation.interceptor.js';
export * from './events/jetstream.js';
export * from './events/outbox.js';
export * from './bootstrap/platform.module.js';
export * from './bootstrap/bootstrap-service.js';
export * from './crypto/secret-box.js';
export * from './common/micro-batcher.js';
export * from './common/lru-cache.js';
export * from './queues/unique-job.js';
export * from './git/git-environment.js';
