import { HooksSubjects, IdentitySubjects, RunnersSubjects, type ActorDto, type HookScopeDto } from '@cairn/contracts';
import { assertSiteAdmin } from '../../auth/site-admin-policy.js';
import { parsePositiveId } from '../../http/params.js';
import { page, redirect, requireSignIn, type PageContext, type WebKit } from '../core/web-kit.js';
import { pageOf } from '../core/paging.js';
import { formRejection } from '../settings/form-error.js';
import { adminHookKind, hookBodyFromForm } from './hook-form.js';

const ADMIN_HOOKS: HookScopeDto = { level: 'admin' };
const ADMIN_RUNNERS = { level: 'admin' as const };
const PAGE_SIZE = 50;
const DELIVERIES_PER_PAGE = 20;

/**
 * `/-/admin/**` (Gitea's paths): users, system and default webhooks with their deliveries and redelivery, runners.
 * The same rule as the API's `@SiteAdminOnly()` routes ({@link assertSiteAdmin}) and the same service calls.
 */
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
    return page('admin/hook-new', kind === 'system' ? 'Add system webhook' : 'Add default webhook', {
      tab: 'hooks', form: { kind, content_type: 'json', events: 'push', active: 'on' },
    });
  });
  kit.post('/-/admin/hooks', async (ctx) => {
    const actor = admin(ctx);
    try {
      const hook = await rpc.send(HooksSubjects.webhookCreate, { actor, scope: ADMIN_HOOKS, body: hookBodyFromForm(ctx.form) });
      await ctx.flash('success', 'The webhook has been added.');
      return redirect(`/-/admin/hooks/${hook.id}`);
    } catch (err) {
      const { secret: _secret, authorization_header: _auth, ...shown } = ctx.form; // secrets are not echoed back
      return page('admin/hook-new', 'Add webhook', { tab: 'hooks', form: shown, ...formRejection(err) }, 422);
    }
  });
  kit.get<{ id: string }>('/-/admin/hooks/:id', async (ctx) => {
    const actor = admin(ctx);
    const hookId = parsePositiveId(ctx.params.id);
    const current = pageOf(ctx.query);
    const [hook, deliveries] = await Promise.all([
      rpc.send(HooksSubjects.webhookGet, { actor, scope: ADMIN_HOOKS, hookId }),
      rpc.send(HooksSubjects.deliveryList, { actor, scope: ADMIN_HOOKS, hookId, query: { page: current, limit: DELIVERIES_PER_PAGE } }),
    ]);
    return page('admin/hook', `Webhook ${hook.config.url ?? hook.id}`, {
      tab: 'hooks', hook, deliveries: deliveries.items, pager: pager(current, deliveries.total, DELIVERIES_PER_PAGE),
    });
  });
  kit.post<{ id: string }>('/-/admin/hooks/:id/delete', async (ctx) => {
    const actor = admin(ctx);
    await rpc.send(HooksSubjects.webhookDelete, { actor, scope: ADMIN_HOOKS, hookId: parsePositiveId(ctx.params.id) });
    await ctx.flash('success', 'The webhook has been removed.');
    return redirect('/-/admin/hooks');
  });
  kit.get<{ id: string; deliveryId: string }>('/-/admin/hooks/:id/deliveries/:deliveryId', async (ctx) => {
    const actor = admin(ctx);
    const hookId = parsePositiveId(ctx.params.id);
    const deliveryId = parsePositiveId(ctx.params.deliveryId, 'deliveryId');
    const delivery = await rpc.send(HooksSubjects.deliveryGet, { actor, scope: ADMIN_HOOKS, hookId, deliveryId });
    return page('admin/delivery', `Delivery ${delivery.guid}`, {
      tab: 'hooks',
      hookId,
      delivery,
      requestText: httpMessageText(delivery.request.headers, JSON.stringify(delivery.request.payload, null, 2)),
      responseText: httpMessageText(delivery.response.headers, delivery.response.payload ?? ''),
    });
  });
  kit.post<{ id: string; deliveryId: string }>('/-/admin/hooks/:id/deliveries/:deliveryId/redeliver', async (ctx) => {
    const actor = admin(ctx);
    const hookId = parsePositiveId(ctx.params.id);
    const deliveryId = parsePositiveId(ctx.params.deliveryId, 'deliveryId');
    await rpc.send(HooksSubjects.deliveryRedeliver, { actor, scope: ADMIN_HOOKS, hookId, deliveryId });
    await ctx.flash('success', 'The delivery has been queued again.');
    return redirect(`/-/admin/hooks/${hookId}`);
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

/** Previous/next links of a list page. */
function pager(current: number, total: number, size: number): { previous: number | null; next: number | null; current: number } {
  return { current, previous: current > 1 ? current - 1 : null, next: current * size < total ? current + 1 : null };
}

/** Headers (already masked by hooks-service) and body as one readable block. */
function httpMessageText(headers: Record<string, string> | null, body: string): string {
  const lines = Object.entries(headers ?? {}).map(([name, value]) => `${name}: ${value}`);
  return `${lines.join('\n')}\n\n${body}`;
}
