export * from './runners.subjects.js';
export * from './actions-scope.dto.js';
export * from './variable.dto.js';
export * from './runner-events.js';
