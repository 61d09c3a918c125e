import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';

/**
 * The web UI's files live beside `src/` and `dist/` in `apps/gateway/web/` (`templates/<area>/*.eta`, `static/`): the
 * same relative path from the sources (tests) and from the build, so nothing is copied at build time.
 */
export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web');
export const TEMPLATES_DIR = path.join(WEB_ROOT, 'templates');
export const STATIC_DIR = path.join(WEB_ROOT, 'static');

/** Eta with HTML escaping on (`<%= %>` escapes, `<%~ %>` is raw and only for already-rendered HTML). */
export function createViews(cache = true): Eta {
  return new Eta({ views: TEMPLATES_DIR, cache, autoEscape: true, defaultExtension: '.eta' });
}
