import { page, type WebKit } from '../core/web-kit.js';
import { dashboardPage } from '../repo/repo.pages.js';

/** `/`: the landing page, or the signed-in user's dashboard (the repository area's). */
export function registerHomePages(web: WebKit): void {
  const dashboard = dashboardPage(web);
  web.get('/', async (ctx) => (ctx.actor ? dashboard(ctx.actor, ctx) : page('home/home', 'Cairn', { signedIn: false })));
}
