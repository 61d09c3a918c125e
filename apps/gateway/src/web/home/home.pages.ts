import { avatarSize, identiconSvg } from '../core/identicon.js';
import { answered, page, type WebKit } from '../core/web-kit.js';
import { dashboardPage } from '../repo/repo.pages.js';

/** `/`: the landing page, or the signed-in user's dashboard (the repository area's); and generated avatars. */
export function registerHomePages(web: WebKit): void {
  const dashboard = dashboardPage(web);
  web.get('/', async (ctx) => (ctx.actor ? dashboard(ctx.actor, ctx) : page('home/home', 'Cairn', { signedIn: false })));
  // Gitea's avatar path. Every name gets an identicon, existing or not, so the answer tells nothing about accounts.
  web.get<{ login: string; size: string }>('/user/avatar/:login/:size', async (ctx) => {
    const svg = identiconSvg(ctx.params.login, avatarSize(ctx.params.size));
    await ctx.reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(svg);
    return answered();
  });
}
