import { IdentitySubjects, RepoSubjects, type ActorDto, type Paginated, type RepositoryDto } from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import { threadView, type ThreadView } from '../notifications/notifications.view.js';

/** Entries per page of the explore, profile and dashboard lists. */
export const LIST_PAGE_SIZE = 20;
const RECENT_ACTIVITY = 10;

export interface RepoCardView {
  fullName: string;
  url: string;
  description: string;
  isPrivate: boolean;
  updated: string;
}

export interface OwnerCardView {
  login: string;
  fullName: string;
  description: string;
  url: string;
}

export interface ListPage<T> {
  items: T[];
  total: number;
  page: number;
  prevUrl: string | null;
  nextUrl: string | null;
}

export interface DashboardView {
  repos: ListPage<RepoCardView>;
  orgs: OwnerCardView[];
  unreadNotifications: number;
  activity: ThreadView[];
}

export interface ProfileView {
  owner: OwnerCardView & { isOrganization: boolean; website: string; location: string };
  repos: ListPage<RepoCardView>;
}

/** Fetched through the subjects the API's search and profile routes use, so each list shows what the API shows. */
export class OwnerViews {
  constructor(private readonly rpc: RpcClient) {}

  async exploreRepos(actor: ActorDto | null, q: string, page: number, path: string): Promise<ListPage<RepoCardView>> {
    const res = await this.rpc.send(RepoSubjects.repositorySearch, {
      actor, query: { q: q || undefined, page, limit: LIST_PAGE_SIZE, sort: 'updated', order: 'desc' },
    });
    return listPage(res, page, path, q, toRepoCard);
  }

  async exploreUsers(actor: ActorDto | null, q: string, page: number, path: string): Promise<ListPage<OwnerCardView>> {
    const res = await this.rpc.send(IdentitySubjects.userSearch, { actor, query: { q: q || undefined, page, limit: LIST_PAGE_SIZE } });
    return listPage(res, page, path, q, (u) => ({ login: u.login, fullName: u.full_name, description: u.description, url: ownerUrl(u.login) }));
  }

  async exploreOrgs(actor: ActorDto | null, page: number, path: string): Promise<ListPage<OwnerCardView>> {
    const res = await this.rpc.send(IdentitySubjects.orgList, { actor, query: { page, limit: LIST_PAGE_SIZE } });
    return listPage(res, page, path, '', (o) => ({ login: o.username, fullName: o.full_name, description: o.description, url: ownerUrl(o.username) }));
  }

  /** A user's or organization's page: who it is and the repositories the actor may see (404 when hidden). */
  async profile(actor: ActorDto | null, name: string, page: number): Promise<ProfileView> {
    // userGet decides visibility; the owner's kind is asked only once the actor may see it.
    const user = await this.rpc.send(IdentitySubjects.userGet, { actor, username: name });
    const [owner, repos] = await Promise.all([
      this.rpc.send(IdentitySubjects.ownerResolve, { name: user.login }),
      this.rpc.send(RepoSubjects.repositoryList, { actor, owner: user.login, query: { page, limit: LIST_PAGE_SIZE } }),
    ]);
    return {
      owner: {
        login: user.login,
        fullName: user.full_name,
        description: user.description,
        url: ownerUrl(user.login),
        isOrganization: owner.kind === 'organization',
        website: user.website,
        location: user.location,
      },
      repos: listPage(repos, page, ownerUrl(user.login), '', toRepoCard),
    };
  }

  /** Recent activity is the user's notification threads of every status, newest first: Cairn has no activity feed. */
  async dashboard(actor: ActorDto, page: number): Promise<DashboardView> {
    const [repos, orgs, unread, recent] = await Promise.all([
      this.rpc.send(RepoSubjects.repositoryList, { actor, query: { page, limit: LIST_PAGE_SIZE } }),
      this.rpc.send(IdentitySubjects.orgList, { actor, username: actor.login, query: { page: 1, limit: 50 } }),
      this.rpc.send(RepoSubjects.notificationCount, { actor }),
      this.rpc.send(RepoSubjects.notificationList, { actor, query: { all: true, page: 1, limit: RECENT_ACTIVITY } }),
    ]);
    return {
      repos: listPage(repos, page, '/', '', toRepoCard),
      orgs: orgs.items.map((o) => ({ login: o.username, fullName: o.full_name, description: o.description, url: ownerUrl(o.username) })),
      unreadNotifications: unread.new,
      activity: recent.items.map(threadView),
    };
  }
}

export function ownerUrl(login: string): string {
  return `/${encodeURIComponent(login)}`;
}

function toRepoCard(r: RepositoryDto): RepoCardView {
  return {
    fullName: r.full_name,
    url: `${ownerUrl(r.owner.login)}/${encodeURIComponent(r.name)}`,
    description: r.description,
    isPrivate: r.private,
    updated: r.updated_at,
  };
}

function listPage<A, B>(res: Paginated<A>, page: number, path: string, q: string, map: (a: A) => B): ListPage<B> {
  const at = (p: number) => `${path}?${new URLSearchParams({ ...(q ? { q } : {}), page: String(p) }).toString()}`;
  return {
    items: res.items.map(map),
    total: res.total,
    page,
    prevUrl: page > 1 ? at(page - 1) : null,
    nextUrl: page * LIST_PAGE_SIZE < res.total ? at(page + 1) : null,
  };
}
