import { page, type WebKit } from '../core/web-kit.js';

/** `/`: the landing page (signed-in users get their dashboard from web-repo's area once it registers one). */
export function registerHomePages(web: WebKit): void {
  web.get('/', async (ctx) => page('home/home', 'Cairn', { signedIn: ctx.actor !== null }));
}
