import { DomainError, LabelSubjects, MilestoneSubjects, type MilestoneDto } from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { pageOf } from '../core/paging.js';
import { page, redirect, requireSignIn, type PageContext, type PageResult, type WebKit } from '../core/web-kit.js';
import { RepoViews, siteOf } from '../repo/repo-views.js';
import { formRejection } from '../settings/form-error.js';
import { canWrite } from '../repo/write-forms.js';

/** Labels and milestones per page (the API's largest page). */
const PAGE_SIZE = 50;

interface RepoParams { owner: string; repo: string }
type Query = Record<string, string | undefined>;

interface LabelForm { title: string; color: string; description: string }
interface MilestoneForm { title: string; content: string; deadline: string }

/** A label id or milestone id from a form, or a 422 (a form that lost its hidden field). */
function formId(raw: string | undefined): number {
  if (!raw || !/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw DomainError.unprocessable('id must be a positive number');
  return Number(raw);
}

/** `deadline` (a date field, `YYYY-MM-DD`) as the API's `due_on` (end of that day, UTC, as Gitea stores it); empty: none. */
export function deadlineToDueOn(deadline: string): string | undefined {
  const d = deadline.trim();
  if (!d) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(`${d}T23:59:59Z`))) {
    throw DomainError.unprocessable('the due date must be a date (YYYY-MM-DD)');
  }
  return `${d}T23:59:59Z`;
}

export function milestoneRows(items: MilestoneDto[], issuesPath: string) {
  return items.map((m) => {
    const total = m.open_issues + m.closed_issues;
    return {
      id: m.id, title: m.title, description: m.description, state: m.state, dueOn: m.due_on, closedAt: m.closed_at,
      open: m.open_issues, closed: m.closed_issues, percent: total ? Math.round((m.closed_issues / total) * 100) : 0,
      href: `${issuesPath}?state=all&milestone=${m.id}`, deadline: m.due_on ? m.due_on.slice(0, 10) : '',
    };
  });
}

/** Labels and milestones at Gitea's paths; repo-service refuses writes, the pages only hide forms it would refuse. */
export function registerTrackerPages(web: WebKit): void {
  const repos = new RepoViews(web.rpc);
  const context = (c: PageContext<RepoParams, unknown>, signedIn = false) =>
    web.repoAccess({ actor: signedIn ? requireSignIn(c) : c.actor }, c.params.owner, c.params.repo, 'issues');
  const base = (ctx: RepoContext) => siteOf(ctx).base;


  const labelsPage = async (c: PageContext<RepoParams, Query>, ctx: RepoContext, failure?: { error: string; status: number }) => {
    const [header, labels] = await Promise.all([
      repos.header(ctx), web.rpc.send(LabelSubjects.list, { ...ctx, query: { page: pageOf(c.query), limit: PAGE_SIZE } }),
    ]);
    return page('pulls/labels', `Labels · ${header.fullName}`, {
      header, labels: labels.items, total: labels.total, canWrite: canWrite(ctx, LabelSubjects.create), base: base(ctx),
      error: failure?.error, csrf: c.actor ? await c.csrfToken() : '',
    }, failure?.status ?? 200);
  };
  const newLabelPage = async (c: PageContext<RepoParams, unknown>, ctx: RepoContext, form: LabelForm, failure?: { error: string; status: number }): Promise<PageResult> => {
    const header = await repos.header(ctx);
    return page('pulls/label-new', `New label · ${header.fullName}`, {
      header, form, action: `${base(ctx)}/labels/new`, error: failure?.error, csrf: await c.csrfToken(),
    }, failure?.status ?? 200);
  };
  const labelForm = (c: PageContext<unknown, unknown>): LabelForm => ({
    title: (c.form.title ?? '').trim(), color: (c.form.color ?? '').trim(), description: c.form.description ?? '',
  });

  web.get<RepoParams, Query>('/:owner/:repo/labels', async (c) => labelsPage(c, await context(c)));
  web.get<RepoParams>('/:owner/:repo/labels/new', async (c) => newLabelPage(c, await context(c, true), { title: '', color: '#0075ca', description: '' }));
  web.post<RepoParams>('/:owner/:repo/labels/new', async (c) => {
    const ctx = await context(c, true);
    const form = labelForm(c);
    try {
      await web.rpc.send(LabelSubjects.create, { ...ctx, body: { name: form.title, color: form.color, description: form.description } });
    } catch (err) {
      return newLabelPage(c, ctx, form, formRejection(err));
    }
    await c.flash('success', `The label ${form.title} has been created.`);
    return redirect(`${base(ctx)}/labels`);
  });
  web.post<RepoParams, Query>('/:owner/:repo/labels/edit', async (c) => {
    const ctx = await context(c, true);
    const form = labelForm(c);
    try {
      await web.rpc.send(LabelSubjects.edit, {
        ...ctx, id: formId(c.form.id), body: { name: form.title, color: form.color, description: form.description },
      });
    } catch (err) {
      return labelsPage(c, ctx, formRejection(err));
    }
    return redirect(`${base(ctx)}/labels`);
  });
  web.post<RepoParams>('/:owner/:repo/labels/delete', async (c) => {
    const ctx = await context(c, true);
    await web.rpc.send(LabelSubjects.delete, { ...ctx, id: formId(c.form.id) });
    await c.flash('success', 'The label has been deleted.');
    return redirect(`${base(ctx)}/labels`);
  });


  const milestonesPage = async (c: PageContext<RepoParams, Query>, ctx: RepoContext, failure?: { error: string; status: number }) => {
    const state = c.query.state === 'closed' ? 'closed' : 'open';
    const [header, list] = await Promise.all([
      repos.header(ctx),
      web.rpc.send(MilestoneSubjects.list, { ...ctx, query: { state, page: pageOf(c.query), limit: PAGE_SIZE } }),
    ]);
    const path = `${base(ctx)}/milestones`;
    return page('pulls/milestones', `Milestones · ${header.fullName}`, {
      header, state, milestones: milestoneRows(list.items, `${base(ctx)}/issues`), total: list.total, path,
      tabs: (['open', 'closed'] as const).map((s) => ({ href: `${path}?state=${s}`, label: s === 'open' ? 'Open' : 'Closed', current: s === state })),
      canWrite: canWrite(ctx, MilestoneSubjects.create), error: failure?.error, csrf: c.actor ? await c.csrfToken() : '',
    }, failure?.status ?? 200);
  };
  const newMilestonePage = async (
    c: PageContext<RepoParams, unknown>, ctx: RepoContext, form: MilestoneForm, failure?: { error: string; status: number },
  ): Promise<PageResult> => {
    const header = await repos.header(ctx);
    return page('pulls/milestone-new', `New milestone · ${header.fullName}`, {
      header, form, action: `${base(ctx)}/milestones/new`, error: failure?.error, csrf: await c.csrfToken(),
    }, failure?.status ?? 200);
  };
  const milestoneForm = (c: PageContext<unknown, unknown>): MilestoneForm => ({
    title: (c.form.title ?? '').trim(), content: c.form.content ?? '', deadline: c.form.deadline ?? '',
  });

  web.get<RepoParams, Query>('/:owner/:repo/milestones', async (c) => milestonesPage(c, await context(c)));
  web.get<RepoParams>('/:owner/:repo/milestones/new', async (c) => newMilestonePage(c, await context(c, true), { title: '', content: '', deadline: '' }));
  web.post<RepoParams>('/:owner/:repo/milestones/new', async (c) => {
    const ctx = await context(c, true);
    const form = milestoneForm(c);
    try {
      const dueOn = deadlineToDueOn(form.deadline);
      await web.rpc.send(MilestoneSubjects.create, {
        ...ctx, body: { title: form.title, description: form.content, ...(dueOn ? { due_on: dueOn } : {}) },
      });
    } catch (err) {
      return newMilestonePage(c, ctx, form, formRejection(err));
    }
    await c.flash('success', `The milestone ${form.title} has been created.`);
    return redirect(`${base(ctx)}/milestones`);
  });
  web.post<RepoParams, Query>('/:owner/:repo/milestones/edit', async (c) => {
    const ctx = await context(c, true);
    const form = milestoneForm(c);
    try {
      const dueOn = deadlineToDueOn(form.deadline);
      await web.rpc.send(MilestoneSubjects.edit, {
        ...ctx, id: String(formId(c.form.id)), body: { title: form.title, description: form.content, ...(dueOn ? { due_on: dueOn } : {}) },
      });
    } catch (err) {
      return milestonesPage(c, ctx, formRejection(err));
    }
    return redirect(`${base(ctx)}/milestones`);
  });
  for (const action of ['open', 'close'] as const) {
    web.post<RepoParams & { id: string }>(`/:owner/:repo/milestones/:id/${action}`, async (c) => {
      const ctx = await context(c, true);
      const id = String(formId(c.params.id));
      await web.rpc.send(MilestoneSubjects.edit, { ...ctx, id, body: { state: action === 'open' ? 'open' : 'closed' } });
      return redirect(`${base(ctx)}/milestones${action === 'close' ? '?state=closed' : ''}`);
    });
  }
  web.post<RepoParams>('/:owner/:repo/milestones/delete', async (c) => {
    const ctx = await context(c, true);
    await web.rpc.send(MilestoneSubjects.delete, { ...ctx, id: String(formId(c.form.id)) });
    await c.flash('success', 'The milestone has been deleted.');
    return redirect(`${base(ctx)}/milestones`);
  });
}
