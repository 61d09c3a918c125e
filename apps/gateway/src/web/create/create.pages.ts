import {
  DomainError, ErrorCode, IdentitySubjects, RepoSubjects, VISIBILITIES,
  type ActorDto, type Visibility,
} from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import { page, redirect, requireSignIn, type PageContext, type PageResult, type WebKit } from '../core/web-kit.js';
import { formRejection } from '../settings/form-error.js';

/** Organizations asked about in the owner picker (Gitea lists the same: the user's memberships). */
const ORG_PICKER_MAX = 50;
/** The README choices of `auto_init` (repo-service writes Gitea's "Default" README). */
const README_TEMPLATES = ['Default'] as const;

export interface OwnerChoice {
  id: number;
  login: string;
  kind: 'self' | 'org';
}

/** Organizations where identity-service says `can_create_repository`: the form never decides that itself. */
export async function ownerChoices(rpc: RpcClient, actor: ActorDto): Promise<OwnerChoice[]> {
  const orgs = await rpc.send(IdentitySubjects.orgList, { actor, username: actor.login, query: { page: 1, limit: ORG_PICKER_MAX } });
  const allowed = await Promise.all(orgs.items.map(async (o): Promise<OwnerChoice | null> => {
    const perms = await rpc.send(IdentitySubjects.orgUserPermissions, { actor, org: o.username, username: actor.login });
    return perms.can_create_repository ? { id: o.id, login: o.username, kind: 'org' } : null;
  }));
  return [{ id: actor.id, login: actor.login, kind: 'self' }, ...allowed.filter((o): o is OwnerChoice => o !== null)];
}

interface RepoForm {
  uid: string;
  repo_name: string;
  description: string;
  private: boolean;
  auto_init: boolean;
  readme: string;
  /** `.gitignore` template names (the multi-select's values; Gitea posts them comma-separated: both are read). */
  gitignores: string[];
  license: string;
  default_branch: string;
}

/** `/repo/create` and `/org/create` (Gitea's forms) send the API's messages; refusals come back on the form. */
export function registerCreatePages(web: WebKit): void {
  web.get<Record<string, string>, { org?: string }>('/repo/create', async (ctx) => {
    const actor = requireSignIn(ctx);
    const owners = await ownerChoices(web.rpc, actor);
    const preselected = owners.find((o) => o.login === ctx.query.org) ?? owners[0];
    return repoForm(web.rpc, ctx, owners, {
      uid: String(preselected.id), repo_name: '', description: '', private: false, auto_init: true, readme: 'Default',
      gitignores: [], license: '', default_branch: '',
    });
  });

  web.post('/repo/create', async (ctx) => {
    const actor = requireSignIn(ctx);
    const f = ctx.form;
    const form: RepoForm = {
      uid: f.uid ?? '', repo_name: (f.repo_name ?? '').trim(), description: f.description ?? '', private: f.private === 'on',
      auto_init: f.auto_init === 'on', readme: f.readme ?? 'Default', default_branch: (f.default_branch ?? '').trim(),
      gitignores: ctx.formAll('gitignores').flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean),
      license: (f.license ?? '').trim(),
    };
    const owners = await ownerChoices(web.rpc, actor);
    const owner = owners.find((o) => String(o.id) === form.uid);
    if (!owner) return repoForm(web.rpc, ctx, owners, form, { error: 'Choose an owner from the list.', status: 422 });
    try {
      const repo = await web.rpc.send(RepoSubjects.repositoryCreate, {
        actor,
        target: owner.kind === 'self' ? 'self' : 'org',
        ...(owner.kind === 'org' ? { owner: owner.login } : {}),
        body: {
          name: form.repo_name.slice(0, 100),
          description: form.description.slice(0, 2048),
          private: form.private,
          auto_init: form.auto_init,
          ...(form.default_branch ? { default_branch: form.default_branch.slice(0, 100) } : {}),
          ...(form.auto_init ? { readme: form.readme.slice(0, 255) } : {}),
          // Unknown names come back as a 422 on the form (repo-service checks them).
          ...(form.auto_init && form.gitignores.length ? { gitignores: form.gitignores.join(',').slice(0, 255) } : {}),
          ...(form.auto_init && form.license ? { license: form.license.slice(0, 255) } : {}),
        },
      });
      return redirect(`/${encodeURIComponent(repo.owner.login)}/${encodeURIComponent(repo.name)}`);
    } catch (err) {
      return repoForm(web.rpc, ctx, owners, form, refusal(err));
    }
  });

  web.get('/org/create', async (ctx) => {
    requireSignIn(ctx);
    return orgForm(ctx, { org_name: '', visibility: 'public' });
  });

  web.post('/org/create', async (ctx) => {
    const actor = requireSignIn(ctx);
    const form = { org_name: (ctx.form.org_name ?? '').trim(), visibility: ctx.form.visibility ?? 'public' };
    if (!(VISIBILITIES as readonly string[]).includes(form.visibility)) {
      return orgForm(ctx, form, { error: `Visibility must be one of: ${VISIBILITIES.join(', ')}.`, status: 422 });
    }
    try {
      const org = await web.rpc.send(IdentitySubjects.orgCreate, {
        actor, body: { username: form.org_name.slice(0, 40), visibility: form.visibility as Visibility },
      });
      await ctx.flash('success', `The organization ${org.username} has been created.`);
      return redirect(`/${encodeURIComponent(org.username)}`);
    } catch (err) {
      return orgForm(ctx, form, refusal(err));
    }
  });
}

/** A refusal shown on the form: "not allowed" (403) as well as the bad-input ones of {@link formRejection}. */
function refusal(err: unknown): { error: string; status: number } {
  if (err instanceof DomainError && err.code === ErrorCode.PERMISSION_DENIED) return { error: err.message, status: 403 };
  return formRejection(err);
}

async function repoForm(
  rpc: RpcClient, ctx: PageContext, owners: OwnerChoice[], form: RepoForm, failure?: { error: string; status: number },
): Promise<PageResult> {
  const templates = await rpc.send(RepoSubjects.templateList, {});
  return page('create/repo', 'New repository', {
    owners, form, readmes: README_TEMPLATES, gitignores: templates.gitignores, licenses: templates.licenses,
    error: failure?.error, csrf: await ctx.csrfToken(),
  }, failure?.status ?? 200);
}

async function orgForm(
  ctx: PageContext, form: { org_name: string; visibility: string }, failure?: { error: string; status: number },
): Promise<PageResult> {
  return page('create/org', 'New organization', {
    form, visibilities: VISIBILITIES, error: failure?.error, csrf: await ctx.csrfToken(),
  }, failure?.status ?? 200);
}
