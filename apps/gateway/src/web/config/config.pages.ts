import { IdentitySubjects } from '@cairn/contracts';
import { page, redirect, requireSignIn, type PageResult, type WebKit } from '../core/web-kit.js';
import { registerHookPages } from '../hooks/hook-pages.js';
import { formRejection } from '../settings/form-error.js';
import { registerActionsPages } from './actions.pages.js';
import { ConfigSites, type ConfigSite } from './config-site.js';
import { registerOrgPages } from './org.pages.js';
import { registerPackagePages } from './packages.pages.js';
import { registerRepoSettingsPages } from './repo-settings.pages.js';

/** The "configure" area (docs/web-config.md); every page calls the API's subjects. */
export function registerConfigPages(web: WebKit): void {
  const sites = new ConfigSites(web);
  registerRepoSettingsPages(web, sites);
  registerOrgPages(web, sites);

  const hookSite = (site: ConfigSite, canTest: boolean) => ({
    actor: site.actor, scope: site.hooks, base: `${site.settingsBase}/hooks`, frame: site.frame('hooks'), canTest,
  });
  registerHookPages(web, { route: '/:owner/:repo/settings/hooks', listAndNew: true, resolve: async (ctx) => hookSite(await sites.repo(ctx), true) });
  registerHookPages(web, { route: '/org/:org/settings/hooks', listAndNew: true, resolve: async (ctx) => hookSite(await sites.org(ctx), false) });
  // The user's hooks: delivered for every repository the user owns (hooks-service's `user` scope, as `/api/v1/user/hooks`).
  registerHookPages(web, { route: '/user/settings/hooks', listAndNew: true, resolve: async (ctx) => hookSite(sites.user(ctx), false) });

  registerActionsPages(web, '/:owner/:repo/settings', (ctx) => sites.repo(ctx));
  registerActionsPages(web, '/org/:org/settings', (ctx) => sites.org(ctx));
  registerActionsPages(web, '/user/settings', async (ctx) => sites.user(ctx));

  // The user's e-mail addresses (Gitea's `/user/settings/account`): `identity.email.*`, as `/api/v1/user/emails`.
  const account = async (actor: ReturnType<typeof requireSignIn>, outcome: { error?: string; status?: number; email?: string } = {}): Promise<PageResult> => {
    const emails = await web.rpc.send(IdentitySubjects.emailList, { actor });
    return page('config/user-account', 'Account', { tab: 'account', emails, ...outcome }, outcome.status);
  };
  web.get('/user/settings/account', async (ctx) => account(requireSignIn(ctx)));
  web.post('/user/settings/account/email', async (ctx) => {
    const actor = requireSignIn(ctx);
    const email = (ctx.form.email ?? '').trim();
    try {
      await web.rpc.send(IdentitySubjects.emailAdd, { actor, body: { emails: [email] } });
    } catch (err) {
      return account(actor, { ...formRejection(err), email });
    }
    await ctx.flash('success', `${email} has been added.`);
    return redirect('/user/settings/account');
  });
  web.post('/user/settings/account/email/delete', async (ctx) => {
    const actor = requireSignIn(ctx);
    const email = (ctx.form.id ?? '').trim();
    try {
      await web.rpc.send(IdentitySubjects.emailDelete, { actor, body: { emails: [email] } });
    } catch (err) {
      return account(actor, formRejection(err, { notFoundIsInput: true }));
    }
    await ctx.flash('success', `${email} has been removed.`);
    return redirect('/user/settings/account');
  });

  web.post('/user/settings/account/email/primary', async (ctx) => {
    const actor = requireSignIn(ctx);
    const email = (ctx.form.id ?? '').trim();
    try {
      await web.rpc.send(IdentitySubjects.emailSetPrimary, { actor, email });
    } catch (err) {
      return account(actor, formRejection(err, { notFoundIsInput: true }));
    }
    await ctx.flash('success', `${email} is now your primary e-mail address.`);
    return redirect('/user/settings/account');
  });

  registerPackagePages(web);
}
