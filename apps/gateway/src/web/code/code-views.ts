import {
  DomainError, ErrorCode, GitDataSubjects, ReleaseSubjects, RepoSubjects,
  type AttachmentDto, type BranchDto, type ReleaseDto, type TagDto,
} from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { highlightLines } from '../repo/highlight.js';
import { renderMarkdown } from '../repo/markdown.js';
import { refUrl, type RefKind } from '../repo/ref-path.js';
import { siteOf, type RepoHeader, RepoViews } from '../repo/repo-views.js';
import { canWrite } from '../repo/write-forms.js';

export const CODE_LIST_PAGE_SIZE = 20;

export interface Pager {
  page: number;
  prevUrl: string | null;
  nextUrl: string | null;
}

export function pager(here: string, page: number, total: number, pageSize = CODE_LIST_PAGE_SIZE): Pager {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return {
    page,
    prevUrl: page > 1 ? `${here}?page=${page - 1}` : null,
    nextUrl: page < pages ? `${here}?page=${page + 1}` : null,
  };
}

export interface CommitLink {
  sha: string;
  shortSha: string;
  title: string;
  url: string;
  date: string;
  authorName: string;
  authorLogin: string | null;
}

export interface BranchRow {
  name: string;
  url: string;
  commit: CommitLink;
  isDefault: boolean;
  protected: boolean;
  /** Commits on the branch that the default branch lacks, and the other way round (null for the default branch). */
  ahead: number | null;
  behind: number | null;
  canDelete: boolean;
  compareUrl: string | null;
}

export interface BranchesView {
  header: RepoHeader;
  defaultBranch: BranchRow | null;
  branches: BranchRow[];
  total: number;
  pager: Pager;
}

export interface TagRow {
  name: string;
  url: string;
  commit: { sha: string; shortSha: string; url: string };
  message: string;
  zipUrl: string;
  tarUrl: string;
  releaseUrl: string | null;
}

export interface TagsView {
  header: RepoHeader;
  tags: TagRow[];
  pager: Pager;
}

export interface AssetRow {
  name: string;
  size: number;
  downloads: number;
  url: string;
}

export interface ReleaseRow {
  id: number;
  tag: string;
  title: string;
  url: string;
  notesHtml: string;
  draft: boolean;
  prerelease: boolean;
  publishedAt: string;
  authorLogin: string;
  commitish: string;
  tagUrl: string;
  assets: AssetRow[];
  zipUrl: string;
  tarUrl: string;
  editUrl: string;
}

export interface ReleasesView {
  header: RepoHeader;
  releases: ReleaseRow[];
  canWrite: boolean;
  pager: Pager;
  newUrl: string;
}

export interface BlameRow {
  /** Set on the first line of a range: the commit shown beside it, and how many lines it spans. */
  commit: (CommitLink & { span: number }) | null;
  line: number;
  html: string;
}

export interface BlameView {
  header: RepoHeader;
  path: string;
  name: string;
  ref: { kind: RefKind; ref: string };
  fileUrl: string;
  rawUrl: string;
  historyUrl: string;
  rows: BlameRow[];
  commitCount: number;
  tooLarge: boolean;
  binary: boolean;
}

function titleOf(message: string): string {
  const nl = message.indexOf('\n');
  return nl < 0 ? message : message.slice(0, nl);
}

export function archiveUrl(base: string, ref: string, format: 'zip' | 'tar.gz'): string {
  return `${base}/archive/${ref.split('/').map(encodeURIComponent).join('/')}.${format}`;
}

export class CodeViews {
  constructor(
    private readonly rpc: RpcClient,
    private readonly repos: RepoViews = new RepoViews(rpc),
  ) {}

  header(ctx: RepoContext): Promise<RepoHeader> {
    return this.repos.header(ctx);
  }

  async blame(ctx: RepoContext, kind: RefKind, ref: string, path: string): Promise<BlameView> {
    const site = siteOf(ctx);
    const [header, reply] = await Promise.all([this.header(ctx), this.rpc.send(RepoSubjects.blame, { ...ctx, path, ref })]);
    const name = path.split('/').pop() ?? path;
    const { lines } = highlightLines(reply.lines.join('\n'), name);
    const commits = new Map(reply.commits.map((c) => [c.sha, c]));
    const rows: BlameRow[] = lines.map((html, i) => ({ commit: null, line: i + 1, html }));
    for (const range of reply.ranges) {
      const c = commits.get(range.sha);
      const row = rows[range.start - 1];
      if (!c || !row) continue;
      row.commit = {
        sha: c.sha, shortSha: c.sha.slice(0, 10), title: c.summary, url: `${site.base}/commit/${c.sha}`,
        date: c.authorDate, authorName: c.authorName, authorLogin: null, span: range.count,
      };
    }
    return {
      header, path, name, ref: { kind, ref },
      fileUrl: refUrl(site.base, 'src', kind, ref, path),
      rawUrl: refUrl(site.base, 'raw', kind, ref, path),
      historyUrl: refUrl(site.base, 'commits', kind, ref, path),
      rows, commitCount: reply.commits.length, tooLarge: reply.tooLarge, binary: reply.binary,
    };
  }

  /** One page of branches (the default branch first, on page 1), each with ahead/behind against the default. */
  async branches(ctx: RepoContext, page: number): Promise<BranchesView> {
    const site = siteOf(ctx);
    const header = this.header(ctx);
    const defaultName = ctx.repo.defaultBranch;
    if (ctx.repo.empty) {
      return { header: await header, defaultBranch: null, branches: [], total: 0, pager: pager(`${site.base}/branches`, 1, 0) };
    }
    const [list, def] = await Promise.all([
      this.rpc.send(RepoSubjects.branchList, { ...ctx, query: { page, limit: CODE_LIST_PAGE_SIZE } }),
      this.rpc.send(RepoSubjects.branchGet, { ...ctx, branch: defaultName }).catch((err: unknown) => {
        if (err instanceof DomainError && err.code === ErrorCode.NOT_FOUND) return null;
        throw err;
      }),
    ]);
    const writer = canWrite(ctx, RepoSubjects.branchDelete);
    const others = list.items.filter((b) => b.name !== defaultName);
    const counts = await Promise.all(others.map((b) => (def ? this.aheadBehind(ctx, defaultName, b.name) : null)));
    const row = (b: BranchDto, isDefault: boolean, ab: { ahead: number; behind: number } | null): BranchRow => ({
      name: b.name,
      url: refUrl(site.base, 'src', 'branch', b.name),
      commit: {
        sha: b.commit.id,
        shortSha: b.commit.id.slice(0, 10),
        title: titleOf(b.commit.message),
        url: `${site.base}/commit/${b.commit.id}`,
        date: b.commit.timestamp,
        authorName: b.commit.author.name,
        authorLogin: b.commit.author.username || null,
      },
      isDefault,
      protected: b.protected,
      ahead: ab?.ahead ?? null,
      behind: ab?.behind ?? null,
      canDelete: writer && !isDefault && !b.protected,
      compareUrl: isDefault ? null : `${site.base}/compare/${encodeRef(defaultName)}...${encodeRef(b.name)}`,
    });
    return {
      header: await header,
      defaultBranch: def && page === 1 ? row(def, true, null) : null,
      branches: others.map((b, i) => row(b, false, counts[i])),
      total: list.total,
      pager: pager(`${site.base}/branches`, page, list.total),
    };
  }

  private async aheadBehind(ctx: RepoContext, base: string, branch: string): Promise<{ ahead: number; behind: number }> {
    const options = { stat: false, verification: false, files: false };
    const [ahead, behind] = await Promise.all([
      this.rpc.send(RepoSubjects.compare, { ...ctx, basehead: `${base}...${branch}`, options }),
      this.rpc.send(RepoSubjects.compare, { ...ctx, basehead: `${branch}...${base}`, options }),
    ]);
    return { ahead: ahead.total_commits, behind: behind.total_commits };
  }

  async tags(ctx: RepoContext, page: number): Promise<TagsView> {
    const site = siteOf(ctx);
    const header = this.header(ctx);
    const list = ctx.repo.empty
      ? { items: [] as TagDto[], total: 0 }
      : await this.rpc.send(GitDataSubjects.tagList, { ...ctx, query: { page, limit: CODE_LIST_PAGE_SIZE } });
    const releases = await this.releaseTags(ctx);
    return {
      header: await header,
      tags: list.items.map((t) => ({
        name: t.name,
        url: refUrl(site.base, 'src', 'tag', t.name),
        commit: { sha: t.commit.sha, shortSha: t.commit.sha.slice(0, 10), url: `${site.base}/commit/${t.commit.sha}` },
        message: t.message.trim() === '' ? '' : titleOf(t.message.trim()),
        zipUrl: archiveUrl(site.base, t.name, 'zip'),
        tarUrl: archiveUrl(site.base, t.name, 'tar.gz'),
        releaseUrl: releases.has(t.name) ? releaseUrl(site.base, t.name) : null,
      })),
      pager: pager(`${site.base}/tags`, page, list.total),
    };
  }

  /** Tags that have a release (the newest page of releases: enough to link most tags on the tags page). */
  private async releaseTags(ctx: RepoContext): Promise<Set<string>> {
    const list = await this.rpc.send(ReleaseSubjects.list, { ...ctx, query: { page: 1, limit: 50 } });
    return new Set(list.items.map((r) => r.tag_name));
  }

  /** One page of releases, newest first (drafts only for writers: repo-service decides). */
  async releases(ctx: RepoContext, page: number): Promise<ReleasesView> {
    const site = siteOf(ctx);
    const header = this.header(ctx);
    const list = await this.rpc.send(ReleaseSubjects.list, { ...ctx, query: { page, limit: CODE_LIST_PAGE_SIZE } });
    return {
      header: await header,
      releases: list.items.map((r) => toReleaseRow(site.base, r)),
      canWrite: canWrite(ctx, ReleaseSubjects.create),
      pager: pager(`${site.base}/releases`, page, list.total),
      newUrl: `${site.base}/releases/new`,
    };
  }

  async release(ctx: RepoContext, tag: string): Promise<ReleasesView> {
    const site = siteOf(ctx);
    const [header, r] = await Promise.all([this.header(ctx), this.rpc.send(ReleaseSubjects.getByTag, { ...ctx, tag })]);
    return {
      header,
      releases: [toReleaseRow(site.base, r)],
      canWrite: canWrite(ctx, ReleaseSubjects.edit),
      pager: { page: 1, prevUrl: null, nextUrl: null },
      newUrl: `${site.base}/releases/new`,
    };
  }
}

/** A ref in a URL path: each segment encoded, slashes kept (as `refUrl` does). */
function encodeRef(ref: string): string {
  return ref.split('/').map(encodeURIComponent).join('/');
}

export function releaseUrl(base: string, tag: string): string {
  return `${base}/releases/tag/${encodeRef(tag)}`;
}

function toAssetRow(a: AttachmentDto): AssetRow {
  return { name: a.name, size: a.size, downloads: a.download_count, url: a.browser_download_url };
}

export function toReleaseRow(base: string, r: ReleaseDto): ReleaseRow {
  const at = refUrl(base, 'src', 'tag', r.tag_name);
  return {
    id: r.id,
    tag: r.tag_name,
    title: r.name || r.tag_name,
    url: releaseUrl(base, r.tag_name),
    notesHtml: r.body ? renderMarkdown(r.body, `${at}/`, `${refUrl(base, 'raw', 'tag', r.tag_name)}/`) : '',
    draft: r.draft,
    prerelease: r.prerelease,
    publishedAt: r.draft ? r.created_at : r.published_at,
    authorLogin: r.author.login,
    commitish: r.target_commitish,
    tagUrl: at,
    // Download links: the attachment's own URL made local (its host is ROOT_URL's, the page's may differ).
    assets: r.assets.map(toAssetRow).map((a) => ({ ...a, url: localPath(a.url) })),
    zipUrl: archiveUrl(base, r.tag_name, 'zip'),
    tarUrl: archiveUrl(base, r.tag_name, 'tar.gz'),
    editUrl: `${base}/releases/edit/${encodeRef(r.tag_name)}`,
  };
}

function localPath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}
