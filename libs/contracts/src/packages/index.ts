export * from './packages-http.js';
