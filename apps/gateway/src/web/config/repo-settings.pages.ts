import { DomainError, ErrorCode, IdentitySubjects, RepoSubjects, type EditRepoBody } from '@cairn/contracts';
import { parsePositiveId } from '../../http/params.js';
import { page, redirect, type PageContext, type PageResult, type WebKit } from '../core/web-kit.js';
import { formRejection } from '../settings/form-error.js';
import {
  MERGE_STYLE_FIELDS, branchProtectionFromForm, collaboratorMode, confirmTypedName, mergeOptionsFromForm, pushMode,
  repoOptionsFromForm,
} from './config-forms.js';
import type { ConfigSites, RepoConfigSite } from './config-site.js';

const LIST_LIMIT = 50;

interface Outcome {
  error?: string;
  status?: number;
  [key: string]: unknown;
}

function framed(site: RepoConfigSite, section: string, data: object): object {
  const frame = site.frame(section);
  return { ...frame.data, frame, ...data };
}

/** Gitea's `/{owner}/{repo}/settings/**` for repository administrators; every change is the API's subject. */
export function registerRepoSettingsPages(web: WebKit, sites: ConfigSites): void {
  const rpc = web.rpc;
  const R = '/:owner/:repo/settings';

  const options = async (site: RepoConfigSite, outcome: Outcome = {}): Promise<PageResult> => {
    const repository = await rpc.send(RepoSubjects.repositoryGet, site.repo);
    return page('config/repo-options', `Settings · ${site.header.fullName}`, framed(site, 'options', {
      repository, mergeStyles: MERGE_STYLE_FIELDS, ...outcome,
    }), outcome.status);
  };
  web.get(R, async (ctx) => options(await sites.repo(ctx)));
  web.post(R, async (ctx) => {
    const site = await sites.repo(ctx);
    const action = ctx.form.action;
    const edit = async (body: EditRepoBody, done: string): Promise<PageResult> => {
      const edited = await rpc.send(RepoSubjects.repositoryEdit, { ...site.repo, body });
      await ctx.flash('success', done);
      return redirect(`/${encodeURIComponent(edited.owner.login)}/${encodeURIComponent(edited.name)}/settings`);
    };
    try {
      switch (action) {
        case 'update': return await edit(repoOptionsFromForm(ctx.form), 'The repository settings have been updated.');
        case 'advanced': return await edit(mergeOptionsFromForm(ctx.form), 'The pull request settings have been updated.');
        case 'archive': return await edit({ archived: true }, 'The repository has been archived.');
        case 'unarchive': return await edit({ archived: false }, 'The repository has been unarchived.');
        case 'delete': {
          confirmTypedName(ctx.form.repo_name, site.repo.repo.name);
          await rpc.send(RepoSubjects.repositoryDelete, site.repo);
          await ctx.flash('success', `The repository ${site.header.fullName} has been deleted.`);
          return redirect(`/${encodeURIComponent(site.header.owner)}`);
        }
        case 'transfer': {
          confirmTypedName(ctx.form.repo_name, site.repo.repo.name);
          const body = { new_owner: (ctx.form.new_owner_name ?? '').trim() };
          const moved = await rpc.send(RepoSubjects.repositoryTransfer, { ...site.repo, body });
          await ctx.flash('success', `The repository has been transferred to ${moved.owner.login}.`);
          return redirect(`/${encodeURIComponent(moved.owner.login)}/${encodeURIComponent(moved.name)}`);
        }
        default: throw DomainError.unprocessable('unknown settings action');
      }
    } catch (err) {
      // An unknown new owner is a 404 about what was typed.
      return options(site, { ...formRejection(err, { notFoundIsInput: action === 'transfer' }), failedAction: action });
    }
  });

  // Collaborators: add by name, change the access mode, remove; Gitea's `uid`/`mode`/`id` fields.
  const collaboration = async (site: RepoConfigSite, outcome: Outcome = {}): Promise<PageResult> => {
    const list = await rpc.send(RepoSubjects.collaboratorList, { ...site.repo, query: { limit: LIST_LIMIT } });
    const collaborators = await Promise.all(list.items.map(async (user) => ({
      user,
      permission: (await rpc.send(RepoSubjects.collaboratorPermission, { ...site.repo, username: user.login })).permission,
    })));
    return page('config/repo-collaboration', `Collaborators · ${site.header.fullName}`, framed(site, 'collaboration', {
      collaborators, teams: await orgTeams(site), ...outcome,
    }), outcome.status);
  };
  /** Null for a user's repository (identity-service knows no organization of that name). */
  const orgTeams = async (site: RepoConfigSite) => {
    const actor = site.actor;
    const org = site.repo.repo.ownerName;
    const list = await rpc.send(IdentitySubjects.teamList, { actor, org, query: { limit: LIST_LIMIT } }).catch((err: unknown) => {
      if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) return null;
      throw err;
    });
    if (!list) return null;
    const given = await Promise.all(list.items.map(async (team) => team.includes_all_repositories || await rpc
      .send(RepoSubjects.teamRepoGet, { actor, teamId: team.id, org, repo: site.repo.repo.name })
      .then(() => true, (err: unknown) => {
        if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) return false;
        throw err;
      })));
    return {
      withAccess: list.items.filter((_, i) => given[i]),
      others: list.items.filter((_, i) => !given[i]),
    };
  };
  /** A collaborator's name from the `uid`/`id` the forms carry (Gitea's), among this repository's collaborators. */
  const collaboratorName = async (site: RepoConfigSite, raw: string | undefined): Promise<string> => {
    const id = parsePositiveId(raw, 'uid');
    const list = await rpc.send(RepoSubjects.collaboratorList, { ...site.repo, query: { limit: LIST_LIMIT } });
    const user = list.items.find((u) => u.id === id);
    if (!user) throw DomainError.notFound('no such collaborator');
    return user.login;
  };
  web.get(`${R}/collaboration`, async (ctx) => collaboration(await sites.repo(ctx)));
  web.post(`${R}/collaboration`, async (ctx) => {
    const site = await sites.repo(ctx);
    const username = (ctx.form.collaborator ?? '').trim();
    try {
      if (!username) throw DomainError.unprocessable('type the name of the user to add');
      // Gitea's 404 for an unknown user is about what was typed.
      await rpc.send(IdentitySubjects.userGet, { actor: site.actor, username }).catch((err: unknown) => {
        throw err instanceof DomainError && err.code === 'NOT_FOUND' ? DomainError.unprocessable(`user "${username}" does not exist`) : err;
      });
      await rpc.send(RepoSubjects.collaboratorAdd, { ...site.repo, username, body: {} });
    } catch (err) {
      return collaboration(site, { ...formRejection(err), collaborator: username });
    }
    await ctx.flash('success', `${username} has been added as a collaborator.`);
    return redirect(`${site.settingsBase}/collaboration`);
  });
  // Teams of an organization repository (Gitea's `…/collaboration/team` with `team` = name, `…/team/delete` with `id`).
  const teamChange = async (ctx: PageContext, add: boolean) => {
    const site = await sites.repo(ctx);
    const org = site.repo.repo.ownerName;
    const list = await rpc.send(IdentitySubjects.teamList, { actor: site.actor, org, query: { limit: LIST_LIMIT } });
    const team = add
      ? list.items.find((t) => t.name.toLowerCase() === (ctx.form.team ?? '').trim().toLowerCase())
      : list.items.find((t) => t.id === parsePositiveId(ctx.form.id));
    if (!team) return collaboration(site, { error: 'no such team in this organization', status: 422 });
    const request = { actor: site.actor, teamId: team.id, org, repo: site.repo.repo.name };
    await rpc.send(add ? RepoSubjects.teamRepoAdd : RepoSubjects.teamRepoRemove, request);
    await ctx.flash('success', add ? `The team ${team.name} now has access.` : `The team ${team.name} no longer has access.`);
    return redirect(`${site.settingsBase}/collaboration`);
  };
  web.post(`${R}/collaboration/team`, (ctx) => teamChange(ctx, true));
  web.post(`${R}/collaboration/team/delete`, (ctx) => teamChange(ctx, false));
  web.post(`${R}/collaboration/access_mode`, async (ctx) => {
    const site = await sites.repo(ctx);
    const permission = collaboratorMode(ctx.form.mode);
    const username = await collaboratorName(site, ctx.form.uid);
    await rpc.send(RepoSubjects.collaboratorAdd, { ...site.repo, username, body: { permission } });
    await ctx.flash('success', `${username} now has ${permission} access.`);
    return redirect(`${site.settingsBase}/collaboration`);
  });
  web.post(`${R}/collaboration/delete`, async (ctx) => {
    const site = await sites.repo(ctx);
    const username = await collaboratorName(site, ctx.form.id);
    await rpc.send(RepoSubjects.collaboratorRemove, { ...site.repo, username });
    await ctx.flash('success', `${username} is no longer a collaborator.`);
    return redirect(`${site.settingsBase}/collaboration`);
  });

  web.get(`${R}/branches`, async (ctx) => {
    const site = await sites.repo(ctx);
    const rules = await rpc.send(RepoSubjects.branchProtectionList, site.repo);
    return page('config/repo-branches', `Branches · ${site.header.fullName}`, framed(site, 'branches', { rules }));
  });
  const ruleForm = (site: RepoConfigSite, rule: object | null, values: Record<string, unknown>, outcome: Outcome = {}) =>
    page('config/repo-branch-rule', `Branch protection · ${site.header.fullName}`, framed(site, 'branches', {
      existing: rule !== null, values, ...outcome,
    }), outcome.status);
  web.get<Record<string, string>, Record<string, string | undefined>>(`${R}/branches/edit`, async (ctx) => {
    const site = await sites.repo(ctx as PageContext);
    const name = (ctx.query.rule_name ?? '').trim();
    if (!name) return ruleForm(site, null, { rule_name: '', enable_push: 'none', required_approvals: 0 });
    const rule = await rpc.send(RepoSubjects.branchProtectionGet, { ...site.repo, name });
    return ruleForm(site, rule, {
      ...rule,
      enable_push: pushMode(rule),
      whitelist_users: rule.push_whitelist_usernames.join('\n'),
      status_check_contexts: rule.status_check_contexts.join('\n'),
    });
  });
  web.post(`${R}/branches/edit`, async (ctx) => {
    const site = await sites.repo(ctx);
    const existing = (ctx.form.original_rule_name ?? '').trim();
    try {
      const body = branchProtectionFromForm(ctx.form);
      if (existing) {
        const { rule_name: _name, ...changes } = body; // a rule keeps its name (the API edits by name)
        await rpc.send(RepoSubjects.branchProtectionEdit, { ...site.repo, name: existing, body: changes });
      } else {
        await rpc.send(RepoSubjects.branchProtectionCreate, { ...site.repo, body });
      }
    } catch (err) {
      return ruleForm(site, existing ? {} : null, { ...ctx.form, rule_name: existing || ctx.form.rule_name }, formRejection(err));
    }
    await ctx.flash('success', `The branch protection rule "${existing || ctx.form.rule_name}" has been saved.`);
    return redirect(`${site.settingsBase}/branches`);
  });
  web.post(`${R}/branches/delete`, async (ctx) => {
    const site = await sites.repo(ctx);
    const name = (ctx.form.rule_name ?? '').trim();
    await rpc.send(RepoSubjects.branchProtectionDelete, { ...site.repo, name });
    await ctx.flash('success', `The branch protection rule "${name}" has been removed.`);
    return redirect(`${site.settingsBase}/branches`);
  });

  const keys = async (site: RepoConfigSite, outcome: Outcome = {}): Promise<PageResult> => {
    const list = await rpc.send(RepoSubjects.deployKeyList, { ...site.repo, query: { limit: LIST_LIMIT } });
    return page('config/repo-keys', `Deploy keys · ${site.header.fullName}`, framed(site, 'keys', { keys: list.items, ...outcome }), outcome.status);
  };
  web.get(`${R}/keys`, async (ctx) => keys(await sites.repo(ctx)));
  web.post(`${R}/keys`, async (ctx) => {
    const site = await sites.repo(ctx);
    const body = { title: (ctx.form.title ?? '').trim(), key: (ctx.form.content ?? '').trim(), read_only: ctx.form.is_writable !== 'on' };
    try {
      await rpc.send(RepoSubjects.deployKeyCreate, { ...site.repo, body });
    } catch (err) {
      return keys(site, { ...formRejection(err), title: body.title, content: body.key });
    }
    await ctx.flash('success', `The deploy key "${body.title}" has been added.`);
    return redirect(`${site.settingsBase}/keys`);
  });
  web.post(`${R}/keys/delete`, async (ctx) => {
    const site = await sites.repo(ctx);
    await rpc.send(RepoSubjects.deployKeyDelete, { ...site.repo, id: parsePositiveId(ctx.form.id) });
    await ctx.flash('success', 'The deploy key has been removed.');
    return redirect(`${site.settingsBase}/keys`);
  });
}
