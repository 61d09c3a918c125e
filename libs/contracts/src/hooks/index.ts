export * from './hooks.subjects.js';
export * from './hook.dto.js';
export * from './delivery.dto.js';
