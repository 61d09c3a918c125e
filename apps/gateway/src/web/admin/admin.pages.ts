import { HooksSubjects, IdentitySubjects, RunnersSubjects, type ActorDto, type HookScopeDto } from '@cairn/contracts';
import { assertSiteAdmin } from '../../auth/site-admin-policy.js';
import { parsePositiveId } from '../../http/params.js';
import { page, redirect, requireSignIn, type PageContext, type WebKit } from '../core/web-kit.js';
import { formRejection } from '../settings/form-error.js';
import { pager, pageOf } from '../core/paging.js';
import {
  HOOK_EVENT_CHECKBOXES, NEW_HOOK_VALUES, adminHookKind, createHookBody, typedHookValues,
} from '../hooks/hook-form.js';
import { registerHookPages, type PageFrame } from '../hooks/hook-pages.js';

const ADMIN_HOOKS: HookScopeDto = { level: 'admin' };
const ADMIN_RUNNERS = { level: 'admin' as const };
const PAGE_SIZE = 50;
/** The frame of the shared hook pages here: the administration's heading and tabs, no side navigation. */
const ADMIN_FRAME: PageFrame = { head: '../admin/_head', nav: '../hooks/_no-nav', data: { tab: 'hooks' } };


/** Gitea's `/-/admin/**` paths, under the API's `@SiteAdminOnly()` rule ({@link assertSiteAdmin}). */
export function registerAdminPages(kit: WebKit): void {
  const rpc = kit.rpc;
  const admin = (ctx: PageContext): ActorDto => {
    const actor = requireSignIn(ctx);
    assertSiteAdmin(actor, kit.settings.twoFactorAuth);
    return actor;
  };

  kit.get('/-/admin', async (ctx) => {
    admin(ctx);
    return redirect('/-/admin/users');
  });

  kit.get('/-/admin/users', async (ctx) => {
    const actor = admin(ctx);
    const current = pageOf(ctx.query);
    const q = (ctx.query.q ?? '').slice(0, 255);
    const users = await rpc.send(IdentitySubjects.userSearch, { actor, query: { page: current, limit: PAGE_SIZE, q: q || undefined } });
    return page('admin/users', 'User accounts', {
      tab: 'users', users: users.items, total: users.total, q, pager: pager(current, users.total, PAGE_SIZE),
    });
  });

  // Webhooks: system hooks (every repository) and default hooks (copied into new repositories).
  kit.get('/-/admin/hooks', async (ctx) => {
    const actor = admin(ctx);
    const hooks = await rpc.send(HooksSubjects.webhookList, { actor, scope: ADMIN_HOOKS, query: { type: 'all', limit: PAGE_SIZE } });
    return page('admin/hooks', 'Webhooks', {
      tab: 'hooks',
      systemHooks: hooks.items.filter((h) => h.is_system_webhook),
      defaultHooks: hooks.items.filter((h) => !h.is_system_webhook),
    });
  });
  kit.get('/-/admin/hooks/new', async (ctx) => {
    admin(ctx);
    const kind = adminHookKind(ctx.query.kind ?? 'system');
    return page('hooks/new', kind === 'system' ? 'Add system webhook' : 'Add default webhook', {
      ...ADMIN_FRAME.data, frame: ADMIN_FRAME, kind, action: '/-/admin/hooks', values: NEW_HOOK_VALUES, checkboxes: HOOK_EVENT_CHECKBOXES,
    });
  });
  kit.post('/-/admin/hooks', async (ctx) => {
    const actor = admin(ctx);
    const kind = adminHookKind(ctx.form.kind);
    try {
      const body = createHookBody(ctx.form, { is_system_webhook: kind === 'system' });
      const hook = await rpc.send(HooksSubjects.webhookCreate, { actor, scope: ADMIN_HOOKS, body });
      await ctx.flash('success', 'The webhook has been added.');
      return redirect(`/-/admin/hooks/${hook.id}`);
    } catch (err) {
      return page('hooks/new', 'Add webhook', {
        ...ADMIN_FRAME.data, frame: ADMIN_FRAME, kind, action: '/-/admin/hooks', values: typedHookValues(ctx.form),
        checkboxes: HOOK_EVENT_CHECKBOXES, ...formRejection(err),
      }, 422);
    }
  });
  // A hook (edit, delete), its deliveries and redelivery: the pages every hook scope shares.
  registerHookPages(kit, {
    route: '/-/admin/hooks',
    listAndNew: false,
    resolve: async (ctx) => ({ actor: admin(ctx), scope: ADMIN_HOOKS, base: '/-/admin/hooks', frame: ADMIN_FRAME, canTest: false }),
  });

  // Runners of the whole instance, and the instance's registration token.
  const runners = async (actor: ActorDto, extra: object = {}) => {
    const list = await rpc.send(RunnersSubjects.runnerList, { actor, scope: ADMIN_RUNNERS, query: { limit: PAGE_SIZE } });
    return page('admin/runners', 'Runners', { tab: 'runners', runners: list.runners, total: list.total_count, ...extra });
  };
  kit.get('/-/admin/runners', (ctx) => runners(admin(ctx)));
  kit.post('/-/admin/runners/registration-token', async (ctx) => {
    const actor = admin(ctx);
    const reset = ctx.form.reset === 'true';
    const token = await rpc.send(RunnersSubjects.registrationToken, { actor, scope: ADMIN_RUNNERS, reset });
    return runners(actor, { registrationToken: token.token, reset });
  });
  kit.post<{ id: string }>('/-/admin/runners/:id/delete', async (ctx) => {
    const actor = admin(ctx);
    await rpc.send(RunnersSubjects.runnerDelete, { actor, scope: ADMIN_RUNNERS, runnerId: parsePositiveId(ctx.params.id) });
    await ctx.flash('success', 'The runner has been removed.');
    return redirect('/-/admin/runners');
  });
}
