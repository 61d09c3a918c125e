/** The public API of @cairn/contracts: import only from the package root. */
export * from './errors/error-code.js';
export * from './errors/domain-error.js';
export * from './common/actor.js';
export * from './common/pagination.js';
export * from './common/health.js';
export * from './subjects.js';
export * from './events.js';
export * from './queues.js';
export * from './internal-http.js';
export * from './identity/index.js';
export * from './repo/index.js';
export * from './hooks/index.js';
export * from './runners/index.js';
export * from './packages/index.js';
export * from './rpc-contract.js';
export * from './git/object-id.js';
export * from './git/ref-name.js';
