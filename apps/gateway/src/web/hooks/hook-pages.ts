import { HooksSubjects, type ActorDto, type HookDeliveryDetailDto, type HookScopeDto } from '@cairn/contracts';
import { parsePositiveId } from '../../http/params.js';
import { page, redirect, type PageContext, type PageResult, type WebKit } from '../core/web-kit.js';
import { pager, pageOf } from '../core/paging.js';
import { formRejection } from '../settings/form-error.js';
import {
  HOOK_EVENT_CHECKBOXES, NEW_HOOK_VALUES, createHookBody, editHookBody, hookFormValues, httpMessageText, typedHookValues,
  type HookFormValues,
} from './hook-form.js';

const DELIVERIES_PER_PAGE = 20;

/** `head` and `nav` partials around the shared hook pages, given the page's data plus `frame.data`. */
export interface PageFrame {
  head: string;
  nav: string;
  data: object;
}

export interface HookSite {
  actor: ActorDto;
  scope: HookScopeDto;
  base: string;
  frame: PageFrame;
  /** Only repository hooks can send a test delivery (hooks-service: a push of the branch head). */
  canTest: boolean;
}

/** The route prefix (Fastify parameters) and how a request resolves to its {@link HookSite} (access checked there). */
export interface HookSiteRoutes {
  route: string;
  resolve(ctx: PageContext): Promise<HookSite>;
  /** Sites with their own list and "new" pages (the admin's system/default split) leave these out. */
  listAndNew: boolean;
}

/** Gitea's webhook pages for every place hooks live, one form and template set; every action is the API's subject. */
export function registerHookPages(web: WebKit, site: HookSiteRoutes): void {
  const rpc = web.rpc;
  const r = site.route;

  const formPage = (at: HookSite, values: HookFormValues, outcome: { error?: string; status?: number } = {}): PageResult =>
    page('hooks/new', 'Add webhook', {
      ...view(at), values, action: `${at.base}/gitea/new`, checkboxes: HOOK_EVENT_CHECKBOXES, ...outcome,
    }, outcome.status);

  if (site.listAndNew) {
    web.get(r, async (ctx) => {
      const at = await site.resolve(ctx);
      const hooks = await rpc.send(HooksSubjects.webhookList, { actor: at.actor, scope: at.scope, query: { limit: 50 } });
      return page('hooks/list', 'Webhooks', { ...view(at), hooks: hooks.items });
    });
    web.get(`${r}/gitea/new`, async (ctx) => formPage(await site.resolve(ctx), NEW_HOOK_VALUES));
    web.post(`${r}/gitea/new`, async (ctx) => {
      const at = await site.resolve(ctx);
      try {
        const hook = await rpc.send(HooksSubjects.webhookCreate, { actor: at.actor, scope: at.scope, body: createHookBody(ctx.form) });
        await ctx.flash('success', 'The webhook has been added.');
        return redirect(`${at.base}/${hook.id}`);
      } catch (err) {
        return formPage(at, typedHookValues(ctx.form), formRejection(err));
      }
    });
  }

  const hookPage = async (ctx: PageContext, at: HookSite, outcome: { error?: string; status?: number; values?: HookFormValues } = {}) => {
    const hookId = parsePositiveId(ctx.params.id);
    const current = pageOf(ctx.query);
    const [hook, deliveries] = await Promise.all([
      rpc.send(HooksSubjects.webhookGet, { actor: at.actor, scope: at.scope, hookId }),
      rpc.send(HooksSubjects.deliveryList, { actor: at.actor, scope: at.scope, hookId, query: { page: current, limit: DELIVERIES_PER_PAGE } }),
    ]);
    return page('hooks/hook', `Webhook ${hook.config.url ?? hook.id}`, {
      ...view(at), hook, values: outcome.values ?? hookFormValues(hook), checkboxes: HOOK_EVENT_CHECKBOXES,
      deliveries: deliveries.items, pager: pager(current, deliveries.total, DELIVERIES_PER_PAGE), error: outcome.error,
    }, outcome.status);
  };
  web.get<{ id: string }>(`${r}/:id`, async (ctx) => hookPage(ctx, await site.resolve(ctx)));
  web.post<{ id: string }>(`${r}/:id`, async (ctx) => {
    const at = await site.resolve(ctx);
    const hookId = parsePositiveId(ctx.params.id);
    try {
      await rpc.send(HooksSubjects.webhookEdit, { actor: at.actor, scope: at.scope, hookId, body: editHookBody(ctx.form) });
    } catch (err) {
      return hookPage(ctx, at, { ...formRejection(err), values: { ...typedHookValues(ctx.form), hasSecret: true } });
    }
    await ctx.flash('success', 'The webhook has been updated.');
    return redirect(`${at.base}/${hookId}`);
  });
  web.post<{ id: string }>(`${r}/:id/test`, async (ctx) => {
    const at = await site.resolve(ctx);
    const hookId = parsePositiveId(ctx.params.id);
    const delivery = await rpc.send(HooksSubjects.webhookTest, { actor: at.actor, scope: at.scope, hookId });
    await ctx.flash(delivery.state === 'failed' ? 'error' : 'success',
      delivery.state === 'failed' ? `The test delivery failed: ${delivery.status}` : 'A test delivery has been sent.');
    return redirect(`${at.base}/${hookId}/deliveries/${delivery.id}`);
  });
  web.post<{ id: string }>(`${r}/:id/delete`, async (ctx) => {
    const at = await site.resolve(ctx);
    await rpc.send(HooksSubjects.webhookDelete, { actor: at.actor, scope: at.scope, hookId: parsePositiveId(ctx.params.id) });
    await ctx.flash('success', 'The webhook has been removed.');
    return redirect(at.base);
  });
  web.get<{ id: string; deliveryId: string }>(`${r}/:id/deliveries/:deliveryId`, async (ctx) => {
    const at = await site.resolve(ctx);
    const hookId = parsePositiveId(ctx.params.id);
    const deliveryId = parsePositiveId(ctx.params.deliveryId, 'deliveryId');
    const delivery = await rpc.send(HooksSubjects.deliveryGet, { actor: at.actor, scope: at.scope, hookId, deliveryId });
    return page('hooks/delivery', `Delivery ${delivery.guid}`, {
      ...view(at),
      hookId,
      delivery,
      failure: failureOf(delivery),
      requestText: httpMessageText(delivery.request.headers, JSON.stringify(delivery.request.payload, null, 2)),
      responseText: httpMessageText(delivery.response.headers, delivery.response.payload ?? ''),
    });
  });
  web.post<{ id: string; deliveryId: string }>(`${r}/:id/deliveries/:deliveryId/redeliver`, async (ctx) => {
    const at = await site.resolve(ctx);
    const hookId = parsePositiveId(ctx.params.id);
    const deliveryId = parsePositiveId(ctx.params.deliveryId, 'deliveryId');
    await rpc.send(HooksSubjects.deliveryRedeliver, { actor: at.actor, scope: at.scope, hookId, deliveryId });
    await ctx.flash('success', 'The delivery has been queued again.');
    return redirect(`${at.base}/${hookId}`);
  });
}

function view(at: HookSite): object {
  return { ...at.frame.data, frame: at.frame, base: at.base, canTest: at.canTest, scopeLevel: at.scope.level };
}

/** The latest attempt's error or status line; null when delivered or still pending. */
export function failureOf(delivery: Pick<HookDeliveryDetailDto, 'state' | 'status' | 'status_code' | 'attempt_log'>): string | null {
  if (delivery.state === 'delivered' || delivery.state === 'pending' || delivery.state === 'delivering') return null;
  const last = delivery.attempt_log.at(-1);
  if (last?.error) return last.error;
  if (delivery.status_code) return `the target answered ${delivery.status_code} ${delivery.status === 'OK' ? '' : delivery.status}`.trim();
  return delivery.status;
}
