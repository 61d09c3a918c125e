import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import { TEMPLATE_HELPERS } from './template-helpers.js';

/**
 * The web UI's files live beside `src/` and `dist/` in `apps/gateway/web/` (`templates/<area>/*.eta`, `static/`): the
 * same relative path from the sources (tests) and from the build, so nothing is copied at build time.
 */
export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web');
export const TEMPLATES_DIR = path.join(WEB_ROOT, 'templates');
export const STATIC_DIR = path.join(WEB_ROOT, 'static');

/**
 * Eta with HTML escaping on (`<%= %>` escapes, `<%~ %>` is raw and only for already-rendered HTML). Every template
 * sees the shared formatting as `ui` (`<%~ ui.time(at) %>`, `<%= ui.plural(n, 'commit') %>`).
 */
export function createViews(cache = true): Eta {
  const views = new Eta({
    views: TEMPLATES_DIR, cache, autoEscape: true, defaultExtension: '.eta',
    functionHeader: 'const ui = this.helpers;',
  });
  return Object.assign(views, { helpers: TEMPLATE_HELPERS });
}
