import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import { TEMPLATE_HELPERS } from './template-helpers.js';

/** Beside `src/` and `dist/`: the same relative path from sources and build, so nothing is copied at build time. */
export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web');
export const TEMPLATES_DIR = path.join(WEB_ROOT, 'templates');
export const STATIC_DIR = path.join(WEB_ROOT, 'static');

/** `<%= %>` escapes; `<%~ %>` is raw, only for already-rendered HTML; shared formatting as `ui`. */
export function createViews(cache = true): Eta {
  const views = new Eta({
    views: TEMPLATES_DIR, cache, autoEscape: true, defaultExtension: '.eta',
    functionHeader: 'const ui = this.helpers;',
  });
  return Object.assign(views, { helpers: TEMPLATE_HELPERS });
}
