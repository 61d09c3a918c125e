import { RunnersSubjects } from '@cairn/contracts';
import { parsePositiveId } from '../../http/params.js';
import { page, redirect, type PageContext, type PageResult, type WebKit } from '../core/web-kit.js';
import { formRejection } from '../settings/form-error.js';
import type { ConfigSite } from './config-site.js';

const LIST_LIMIT = 50;

interface Outcome {
  error?: string;
  status?: number;
  [key: string]: unknown;
}

/** Runners, variables and secrets (never shown back) at Gitea's `…/settings/actions/*` paths, via runners-service. */
export function registerActionsPages(web: WebKit, route: string, resolve: (ctx: PageContext) => Promise<ConfigSite>): void {
  const rpc = web.rpc;
  const A = `${route}/actions`;
  const framed = (site: ConfigSite, section: string, data: object) => {
    const frame = site.frame(section);
    return { ...frame.data, frame, actionsBase: `${site.settingsBase}/actions`, ...data };
  };

  const runners = async (site: ConfigSite, outcome: Outcome = {}): Promise<PageResult> => {
    const list = await rpc.send(RunnersSubjects.runnerList, { actor: site.actor, scope: site.actions, query: { limit: LIST_LIMIT } });
    return page('config/actions-runners', 'Runners', framed(site, 'runners', { runners: list.runners, total: list.total_count, ...outcome }));
  };
  web.get(`${A}/runners`, async (ctx) => runners(await resolve(ctx)));
  web.post(`${A}/runners/registration-token`, async (ctx) => {
    const site = await resolve(ctx);
    const reset = ctx.form.reset === 'true';
    const token = await rpc.send(RunnersSubjects.registrationToken, { actor: site.actor, scope: site.actions, reset });
    // Shown in this answer only, like Gitea's runners page.
    return runners(site, { registrationToken: token.token, reset });
  });
  web.post(`${A}/runners/delete`, async (ctx) => {
    const site = await resolve(ctx);
    await rpc.send(RunnersSubjects.runnerDelete, { actor: site.actor, scope: site.actions, runnerId: parsePositiveId(ctx.form.id) });
    await ctx.flash('success', 'The runner has been removed.');
    return redirect(`${site.settingsBase}/actions/runners`);
  });

  const variables = async (site: ConfigSite, outcome: Outcome = {}): Promise<PageResult> => {
    const list = await rpc.send(RunnersSubjects.variableList, { actor: site.actor, scope: site.actions, query: { limit: LIST_LIMIT } });
    return page('config/actions-variables', 'Variables', framed(site, 'variables', { variables: list.items, ...outcome }), outcome.status);
  };
  web.get(`${A}/variables`, async (ctx) => variables(await resolve(ctx)));
  web.post(`${A}/variables`, async (ctx) => {
    const site = await resolve(ctx);
    const name = (ctx.form.name ?? '').trim();
    const original = (ctx.form.original_name ?? '').trim();
    const value = ctx.form.data ?? '';
    const description = ctx.form.description ?? '';
    try {
      if (original) {
        await rpc.send(RunnersSubjects.variableUpdate, { actor: site.actor, scope: site.actions, name: original, body: { name, value, description } });
      } else {
        await rpc.send(RunnersSubjects.variableCreate, { actor: site.actor, scope: site.actions, name, body: { value, description } });
      }
    } catch (err) {
      return variables(site, { ...formRejection(err), typed: { name, data: value, description } });
    }
    await ctx.flash('success', `The variable ${name.toUpperCase()} has been saved.`);
    return redirect(`${site.settingsBase}/actions/variables`);
  });
  web.post(`${A}/variables/delete`, async (ctx) => {
    const site = await resolve(ctx);
    const name = (ctx.form.name ?? '').trim();
    await rpc.send(RunnersSubjects.variableDelete, { actor: site.actor, scope: site.actions, name });
    await ctx.flash('success', `The variable ${name} has been removed.`);
    return redirect(`${site.settingsBase}/actions/variables`);
  });

  const secrets = async (site: ConfigSite, outcome: Outcome = {}): Promise<PageResult> => {
    const list = await rpc.send(RunnersSubjects.secretList, { actor: site.actor, scope: site.actions, query: { limit: LIST_LIMIT } });
    return page('config/actions-secrets', 'Secrets', framed(site, 'secrets', { secrets: list.items, ...outcome }), outcome.status);
  };
  web.get(`${A}/secrets`, async (ctx) => secrets(await resolve(ctx)));
  web.post(`${A}/secrets`, async (ctx) => {
    const site = await resolve(ctx);
    const name = (ctx.form.name ?? '').trim();
    const description = ctx.form.description ?? '';
    try {
      await rpc.send(RunnersSubjects.secretPut, { actor: site.actor, scope: site.actions, name, body: { data: ctx.form.data ?? '', description } });
    } catch (err) {
      // The value is not echoed back, even after a refusal.
      return secrets(site, { ...formRejection(err), typed: { name, description } });
    }
    await ctx.flash('success', `The secret ${name.toUpperCase()} has been saved.`);
    return redirect(`${site.settingsBase}/actions/secrets`);
  });
  web.post(`${A}/secrets/delete`, async (ctx) => {
    const site = await resolve(ctx);
    const name = (ctx.form.name ?? '').trim();
    await rpc.send(RunnersSubjects.secretDelete, { actor: site.actor, scope: site.actions, name });
    await ctx.flash('success', `The secret ${name} has been removed.`);
    return redirect(`${site.settingsBase}/actions/secrets`);
  });
}
