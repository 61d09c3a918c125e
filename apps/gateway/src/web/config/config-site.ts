import {
  DomainError, IdentitySubjects, RepoSubjects, meetsSubjectAccess,
  type ActionsScopeDto, type ActorDto, type HookScopeDto, type OrganizationDto,
} from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { requireSignIn, type PageContext, type WebKit } from '../core/web-kit.js';
import type { PageFrame } from '../hooks/hook-pages.js';
import { RepoViews, type RepoHeader } from '../repo/repo-views.js';

/** A settings page of a repository, an organization or the signed-in user: who asks, where, and the page frame. */
export interface ConfigSite {
  actor: ActorDto;
  settingsBase: string;
  frame: (section: string) => PageFrame;
  hooks: HookScopeDto;
  actions: ActionsScopeDto;
}

export interface RepoConfigSite extends ConfigSite {
  repo: RepoContext;
  header: RepoHeader;
}

export interface OrgConfigSite extends ConfigSite {
  org: OrganizationDto;
}

/** What to show, with the API's rules (repo admins, org owners; others 404 as Gitea's web); services check again. */
export class ConfigSites {
  private readonly repos: RepoViews;

  constructor(private readonly web: WebKit) {
    this.repos = new RepoViews(web.rpc);
  }

  async repo(ctx: PageContext): Promise<RepoConfigSite> {
    const actor = requireSignIn(ctx);
    const repo = await this.web.repoAccess(ctx, ctx.params.owner!, ctx.params.repo!);
    // Gitea's web answers 404 to those who may not edit the repository.
    if (!meetsSubjectAccess(repo.access, RepoSubjects.repositoryEdit)) throw DomainError.notFound('not found');
    const header = await this.repos.header(repo);
    return {
      actor,
      repo,
      header,
      settingsBase: `${header.base}/settings`,
      frame: (section) => ({ head: '../config/_repo-head', nav: '../config/_repo-nav', data: { header, section } }),
      hooks: { level: 'repo', repo: repo.repo, access: repo.access },
      actions: { level: 'repo', repo: repo.repo, access: repo.access },
    };
  }

  async org(ctx: PageContext): Promise<OrgConfigSite> {
    const actor = requireSignIn(ctx);
    const name = ctx.params.org!;
    const org = await this.web.rpc.send(IdentitySubjects.orgGet, { actor, org: name });
    const permissions = await this.web.rpc.send(IdentitySubjects.orgUserPermissions, { actor, org: name, username: actor.login });
    if (!permissions.is_owner && !actor.isAdmin) throw DomainError.notFound('not found');
    const base = `/org/${encodeURIComponent(org.username)}`;
    return {
      actor,
      org,
      settingsBase: `${base}/settings`,
      frame: (section) => ({ head: '../config/_org-head', nav: '../config/_org-nav', data: { org, section } }),
      hooks: { level: 'org', org: org.username },
      actions: { level: 'org', org: org.username },
    };
  }

  user(ctx: PageContext): ConfigSite {
    const actor = requireSignIn(ctx);
    return {
      actor,
      settingsBase: '/user/settings',
      // Webhooks are a tab of their own; runners, variables and secrets share the Actions tab and its side navigation.
      frame: (section) => section === 'hooks'
        ? { head: '../config/_user-head', nav: '../hooks/_no-nav', data: { tab: 'hooks', section } }
        : { head: '../config/_user-head', nav: '../config/_user-actions-nav', data: { tab: 'actions', section } },
      hooks: { level: 'user' },
      actions: { level: 'user' },
    };
  }
}
