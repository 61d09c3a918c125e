import { DomainError, IdentitySubjects, TEAM_UNITS, type EditOrgBody, type TeamDto } from '@cairn/contracts';
import { page, redirect, type PageResult, type WebKit } from '../core/web-kit.js';
import { formRejection } from '../settings/form-error.js';
import type { ConfigSites, OrgConfigSite } from './config-site.js';

const LIST_LIMIT = 50;
const VISIBILITIES = ['public', 'limited', 'private'] as const;
const TEAM_PERMISSIONS = ['read', 'write', 'admin'] as const;

interface Outcome {
  error?: string;
  status?: number;
  [key: string]: unknown;
}

function framed(site: OrgConfigSite, section: string, data: object): object {
  const frame = site.frame(section);
  return { ...frame.data, frame, ...data };
}

/** The organization form (Gitea's `/org/{org}/settings` fields) as `EditOrgBody`; identity-service checks the values. */
export function orgSettingsFromForm(form: Record<string, string>): EditOrgBody {
  const visibility = form.visibility ?? 'public';
  if (!(VISIBILITIES as readonly string[]).includes(visibility)) throw DomainError.unprocessable('visibility must be public, limited or private');
  return {
    full_name: (form.full_name ?? '').trim(),
    description: form.description ?? '',
    website: (form.website ?? '').trim(),
    location: (form.location ?? '').trim(),
    visibility: visibility as EditOrgBody['visibility'],
  };
}

/** Gitea's `/org/{org}/settings`, `members` and `teams` pages for owners, through identity-service's subjects. */
export function registerOrgPages(web: WebKit, sites: ConfigSites): void {
  const rpc = web.rpc;
  const O = '/org/:org';

  const settings = (site: OrgConfigSite, outcome: Outcome = {}): PageResult =>
    page('config/org-settings', `Settings · ${site.org.username}`, framed(site, 'options', { values: site.org, ...outcome }), outcome.status);
  web.get(`${O}/settings`, async (ctx) => settings(await sites.org(ctx)));
  web.post(`${O}/settings`, async (ctx) => {
    const site = await sites.org(ctx);
    try {
      await rpc.send(IdentitySubjects.orgEdit, { actor: site.actor, org: site.org.username, body: orgSettingsFromForm(ctx.form) });
    } catch (err) {
      return settings(site, { ...formRejection(err), values: { ...site.org, ...ctx.form } });
    }
    await ctx.flash('success', 'The organization settings have been updated.');
    return redirect(`${site.settingsBase}`);
  });

  // Members: public or private membership, removal.
  web.get(`${O}/members`, async (ctx) => {
    const site = await sites.org(ctx);
    const org = site.org.username;
    const list = await rpc.send(IdentitySubjects.memberList, { actor: site.actor, org, query: { limit: LIST_LIMIT } });
    const members = await Promise.all(list.items.map(async (user) => ({
      user, public: await rpc.send(IdentitySubjects.publicMemberCheck, { actor: site.actor, org, username: user.login }),
    })));
    return page('config/org-members', `Members · ${org}`, framed(site, 'members', { members }));
  });
  web.post(`${O}/members/action/:action`, async (ctx) => {
    const site = await sites.org(ctx);
    const org = site.org.username;
    const username = (ctx.form.username ?? '').trim();
    switch (ctx.params.action) {
      case 'public':
      case 'private':
        await rpc.send(IdentitySubjects.publicMemberSet, { actor: site.actor, org, username, public: ctx.params.action === 'public' });
        await ctx.flash('success', `${username}'s membership is now ${ctx.params.action}.`);
        break;
      case 'remove':
        await rpc.send(IdentitySubjects.memberRemove, { actor: site.actor, org, username });
        await ctx.flash('success', `${username} has been removed from the organization.`);
        break;
      default:
        throw DomainError.notFound('no such action');
    }
    return redirect(`/org/${encodeURIComponent(org)}/members`);
  });

  // Teams: list, new (permission and units), members of one team.
  const teams = async (site: OrgConfigSite, outcome: Outcome = {}): Promise<PageResult> => {
    const list = await rpc.send(IdentitySubjects.teamList, { actor: site.actor, org: site.org.username, query: { limit: LIST_LIMIT } });
    return page('config/org-teams', `Teams · ${site.org.username}`, framed(site, 'teams', {
      teams: list.items, units: TEAM_UNITS, permissions: TEAM_PERMISSIONS, ...outcome,
    }), outcome.status);
  };
  web.get(`${O}/teams`, async (ctx) => teams(await sites.org(ctx)));
  web.post(`${O}/teams/new`, async (ctx) => {
    const site = await sites.org(ctx);
    const permission = ctx.form.permission ?? 'read';
    try {
      if (!(TEAM_PERMISSIONS as readonly string[]).includes(permission)) throw DomainError.unprocessable('permission must be read, write or admin');
      const team = await rpc.send(IdentitySubjects.teamCreate, {
        actor: site.actor,
        org: site.org.username,
        body: {
          name: (ctx.form.team_name ?? '').trim(),
          description: ctx.form.description ?? '',
          permission: permission as (typeof TEAM_PERMISSIONS)[number],
          includes_all_repositories: ctx.form.repo_access === 'all',
          can_create_org_repo: ctx.form.can_create_org_repo === 'on',
          units: TEAM_UNITS.filter((u) => ctx.form[u] === 'on'),
        },
      });
      await ctx.flash('success', `The team ${team.name} has been created.`);
      return redirect(`/org/${encodeURIComponent(site.org.username)}/teams/${encodeURIComponent(team.name)}`);
    } catch (err) {
      return teams(site, { ...formRejection(err), typed: ctx.form });
    }
  });
  const teamByName = async (site: OrgConfigSite, name: string): Promise<TeamDto> => {
    const list = await rpc.send(IdentitySubjects.teamList, { actor: site.actor, org: site.org.username, query: { limit: LIST_LIMIT } });
    const team = list.items.find((t) => t.name.toLowerCase() === name.toLowerCase());
    if (!team) throw DomainError.notFound('team not found');
    return team;
  };
  const teamPage = async (site: OrgConfigSite, name: string, outcome: Outcome = {}): Promise<PageResult> => {
    const team = await teamByName(site, name);
    const members = await rpc.send(IdentitySubjects.teamMemberList, { actor: site.actor, teamId: team.id, query: { limit: LIST_LIMIT } });
    return page('config/org-team', `${team.name} · ${site.org.username}`, framed(site, 'teams', { team, members: members.items, ...outcome }), outcome.status);
  };
  web.get<{ org: string; team: string }>(`${O}/teams/:team`, async (ctx) => teamPage(await sites.org(ctx), ctx.params.team));
  web.post<{ org: string; team: string; action: string }>(`${O}/teams/:team/action/:action`, async (ctx) => {
    const site = await sites.org(ctx);
    const team = await teamByName(site, ctx.params.team);
    const username = (ctx.form.uname ?? ctx.form.username ?? '').trim();
    const back = `/org/${encodeURIComponent(site.org.username)}/teams/${encodeURIComponent(team.name)}`;
    if (ctx.params.action === 'add') {
      try {
        if (!username) throw DomainError.unprocessable('type the name of the user to add');
        await rpc.send(IdentitySubjects.teamMemberAdd, { actor: site.actor, teamId: team.id, username });
      } catch (err) {
        return teamPage(site, team.name, formRejection(err, { notFoundIsInput: true }));
      }
      await ctx.flash('success', `${username} has been added to ${team.name}.`);
    } else if (ctx.params.action === 'remove') {
      await rpc.send(IdentitySubjects.teamMemberRemove, { actor: site.actor, teamId: team.id, username });
      await ctx.flash('success', `${username} has been removed from ${team.name}.`);
    } else {
      throw DomainError.notFound('no such action');
    }
    return redirect(back);
  });
}
