export * from './packages-http.js';
export * from './package-api.subjects.js';
export * from './package-api.dto.js';
export * from './package-api.rpc.js';
export * from './package-events.js';
