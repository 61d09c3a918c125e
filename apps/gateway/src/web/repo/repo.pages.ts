import { DomainError, type ActorDto } from '@cairn/contracts';
import { InternalRawClient } from '../../routes/repo-content/internal-raw.client.js';
import { sendRawBlob } from '../../routes/repo-content/send-raw.js';
import { pageOf } from '../core/paging.js';
import { answered, page, redirect, type PageContext, type PageResult, type WebKit } from '../core/web-kit.js';
import { diffStyleOf } from './diff-view.js';
import { OwnerViews } from './owner-views.js';
import { registerReleaseDownloads } from './release-downloads.js';
import { isRefKind, refUrl } from './ref-path.js';
import { RepoViews, siteOf, type FileView, type RepoHeader, type TreeView } from './repo-views.js';

interface RepoParams {
  owner: string;
  repo: string;
}
interface RefParams extends RepoParams {
  kind: string;
  '*': string;
}
type Query = Record<string, string | undefined>;

/** `?q=`, trimmed and bounded as the API's search queries are. */
function keywordOf(q: Query): string {
  return (q.q ?? '').trim().slice(0, 255);
}

/** Every page reads through {@link RepoViews} / {@link OwnerViews}: the API's subjects with the signed-in actor. */
export function registerRepoPages(web: WebKit): void {
  const repos = new RepoViews(web.rpc);
  const owners = new OwnerViews(web.rpc);
  const internalRaw = new InternalRawClient(web.deps.common);

  web.get<Record<string, string>, Query>('/explore/repos', async (ctx) => {
    const q = keywordOf(ctx.query);
    const list = await owners.exploreRepos(ctx.actor, q, pageOf(ctx.query), '/explore/repos');
    return page('repo/explore-repos', 'Explore repositories', { tab: 'repos', q, list });
  });
  web.get<Record<string, string>, Query>('/explore/users', async (ctx) => {
    const q = keywordOf(ctx.query);
    const list = await owners.exploreUsers(ctx.actor, q, pageOf(ctx.query), '/explore/users');
    return page('repo/explore-owners', 'Explore users', { tab: 'users', q, list });
  });
  web.get<Record<string, string>, Query>('/explore/organizations', async (ctx) => {
    const list = await owners.exploreOrgs(ctx.actor, pageOf(ctx.query), '/explore/organizations');
    return page('repo/explore-owners', 'Explore organizations', { tab: 'organizations', q: '', list });
  });

  web.get<{ owner: string }, Query>('/:owner', async (ctx) => {
    const profile = await owners.profile(ctx.actor, ctx.params.owner, pageOf(ctx.query));
    return page('repo/profile', profile.owner.fullName || profile.owner.login, profile);
  });

  // Every repository page here shows code: the code unit's access counts.
  const access = (ctx: PageContext<RepoParams, Query>) => web.repoAccess(ctx, ctx.params.owner, ctx.params.repo, 'code');

  web.get<RepoParams, Query>('/:owner/:repo', async (ctx) => {
    const repo = await access(ctx);
    return browsed(await repos.browse(repo), () => repos.header(repo));
  });

  web.get<RefParams, Query>('/:owner/:repo/src/:kind/*', async (ctx) => {
    const repo = await access(ctx);
    const source = ctx.query.display === 'source';
    return browsed(await repos.browse(repo, refKind(ctx.params.kind), ctx.params['*'], { source }), () => repos.header(repo));
  });

  web.get<RefParams, Query>('/:owner/:repo/raw/:kind/*', async (ctx) => {
    const repo = await access(ctx);
    const target = await repos.rawTarget(repo, refKind(ctx.params.kind), ctx.params['*']);
    // The bytes are the API's raw answer (nosniff, inline disposition, the sandboxed user-content CSP). Only this
    // site's own pages may frame it: the file view embeds PDFs.
    ctx.reply.header('x-frame-options', 'SAMEORIGIN');
    await sendRawBlob(web.rpc, internalRaw, repo, target.path, target.ref, ctx.reply);
    return answered();
  });

  web.get<RepoParams, Query>('/:owner/:repo/commits', async (ctx) => {
    const repo = await access(ctx);
    return redirect(refUrl(siteOf(repo).base, 'commits', 'branch', repo.repo.defaultBranch));
  });

  web.get<RefParams, Query>('/:owner/:repo/commits/:kind/*', async (ctx) => {
    const repo = await access(ctx);
    const view = await repos.history(repo, refKind(ctx.params.kind), ctx.params['*'], pageOf(ctx.query));
    if (!view) return emptyPage(await repos.header(repo));
    return page('repo/commits', `Commits · ${view.header.fullName}`, view);
  });

  web.get<RepoParams & { sha: string }, Query>('/:owner/:repo/commit/:sha', async (ctx) => {
    const repo = await access(ctx);
    if (!/^[0-9a-f]{4,64}$/i.test(ctx.params.sha)) throw DomainError.notFound('commit not found');
    const view = await repos.commit(repo, ctx.params.sha, diffStyleOf(ctx.query.style));
    return page('repo/commit', `${view.commit.title} · ${view.header.fullName}`, view);
  });

  registerReleaseDownloads(web);
}

export function dashboardPage(web: WebKit): (actor: ActorDto, ctx: PageContext<unknown, Query>) => Promise<PageResult> {
  const owners = new OwnerViews(web.rpc);
  return async (actor, ctx) => {
    const view = await owners.dashboard(actor, pageOf(ctx.query));
    return page('repo/dashboard', 'Dashboard', { login: actor.login, ...view });
  };
}

function refKind(kind: string) {
  if (!isRefKind(kind)) throw DomainError.notFound('no such page');
  return kind;
}

function emptyPage(header: RepoHeader): PageResult {
  return page('repo/empty', header.fullName, { header });
}

async function browsed(view: TreeView | FileView | null, header: () => Promise<RepoHeader>): Promise<PageResult> {
  if (!view) return emptyPage(await header());
  if ('entries' in view) {
    const title = view.ref.path ? `${view.ref.path} · ${view.header.fullName}` : view.header.fullName;
    return page('repo/tree', title, view);
  }
  return page('repo/file', `${view.ref.path} · ${view.header.fullName}`, view);
}
