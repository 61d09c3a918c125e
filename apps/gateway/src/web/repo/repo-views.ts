import {
  COMMIT_DIFF_MAX_BYTES, DomainError, REF_NAMES_MAX, RepoSubjects, meetsSubjectAccess,
  type CommitDto, type ContentsResponseDto, type RefNamesReply,
} from '@cairn/contracts';
import { LruCache, type RpcClient } from '@cairn/platform';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { imageTypeForName } from '../../http/user-content.js';
import { escapeHtml, highlightLines } from './highlight.js';
import { MARKDOWN_MAX_BYTES, isMarkdownName, renderMarkdown } from './markdown.js';
import { likelyRefPath, refUrl, splitRefPath, type RefKind, type RefPath } from './ref-path.js';
import { diffView, excerptUrl, type DiffStyle, type DiffView } from './diff-view.js';
import { parseUnifiedDiff } from './unified-diff.js';
import { verificationBadge, type VerificationBadge } from './verification-badge.js';

/** Keeps a file's base64 within the bus's inline budget: the page never needs the API's internal-HTTP detour. */
export const FILE_VIEW_MAX_BYTES = 384 * 1024;
/** The README cache's bound: entries, and the largest rendered README it keeps (so at most ~16 MB). */
const README_CACHE_ENTRIES = 256;
const README_CACHE_MAX_CHARS = 64 * 1024;
export const COMMITS_PAGE_SIZE = 50;

export interface RepoHeader {
  owner: string;
  name: string;
  fullName: string;
  description: string;
  isPrivate: boolean;
  empty: boolean;
  defaultBranch: string;
  base: string;
  cloneHttp: string;
  cloneSsh: string;
  archived: boolean;
  openIssues: number;
  openPulls: number;
  /** The Settings tab: repository admins and site admins only (the settings pages check again). */
  canAdmin: boolean;
}

export interface RefView extends RefPath {
  names: RefNamesReply;
}

/** The ref switcher's choices: each branch and tag links to the same page (and path) at that ref. */
export interface RefSwitcher {
  label: string;
  kindLabel: string;
  branches: { name: string; url: string; current: boolean }[];
  tags: { name: string; url: string; current: boolean }[];
  truncated: boolean;
}

export interface TreeEntryView {
  name: string;
  type: ContentsResponseDto['type'];
  url: string;
  size: number | null;
  /** The commit that last changed the entry (from repo-service's last-commit cache), when known. */
  lastCommit: { sha: string; title: string; url: string; date: string } | null;
}

/** The bar above a tree: the newest commit of the folder and how many commits its history has. */
export interface LatestCommitView {
  commit: { sha: string; shortSha: string; title: string; url: string; authorName: string; authorLogin: string | null; date: string };
  total: number;
  historyUrl: string;
}

export interface Breadcrumb {
  name: string;
  url: string;
}

export interface TreeView {
  header: RepoHeader;
  ref: RefView;
  switcher: RefSwitcher;
  historyUrl: string;
  crumbs: Breadcrumb[];
  latest: LatestCommitView | null;
  entries: TreeEntryView[];
  readme: { name: string; html: string; markdown: boolean } | null;
}

export interface FileView {
  header: RepoHeader;
  ref: RefView;
  switcher: RefSwitcher;
  historyUrl: string;
  crumbs: Breadcrumb[];
  name: string;
  size: number;
  rawUrl: string;
  blameUrl: string;
  /** How the file is shown: an image (`<img>` of the raw URL), a PDF (linked), rendered Markdown, or its lines. */
  display: 'image' | 'pdf' | 'markdown' | 'source';
  /** Rendered Markdown (display `markdown`); the toggle links to the other view. */
  markdownHtml: string | null;
  sourceUrl: string | null;
  renderedUrl: string | null;
  /** Highlighted, escaped lines; null when the file is binary or too large to show. */
  lines: string[] | null;
  binary: boolean;
  tooLarge: boolean;
  language: string | null;
}

export interface CommitRowView {
  sha: string;
  shortSha: string;
  title: string;
  authorName: string;
  authorLogin: string | null;
  date: string;
  url: string;
  badge: VerificationBadge;
}

export interface CommitsView {
  header: RepoHeader;
  ref: RefView;
  switcher: RefSwitcher;
  commits: CommitRowView[];
  page: number;
  total: number;
  prevUrl: string | null;
  nextUrl: string | null;
}

export interface CommitView {
  header: RepoHeader;
  commit: CommitRowView & { body: string; parents: string[]; committerName: string; browseUrl: string };
  diff: DiffView;
  tooLarge: boolean;
}

/** Fetched over NATS with the signed-in actor exactly as the API fetches it, shaped into view models. */
export class RepoViews {
  /** Rendered READMEs by blob id (content-addressed: never stale); see `readme`. */
  private readonly renderedReadmes = new LruCache<NonNullable<TreeView['readme']>>(README_CACHE_ENTRIES);

  constructor(private readonly rpc: RpcClient) {}

  /** The header from the resolved repository and its summary (one row read; no owner lookup). */
  async header(ctx: RepoContext): Promise<RepoHeader> {
    const summary = await this.rpc.send(RepoSubjects.repositorySummary, ctx);
    const { ownerName: owner, name } = ctx.repo;
    return {
      owner,
      name,
      fullName: `${owner}/${name}`,
      description: summary.description,
      isPrivate: ctx.repo.private ?? false,
      empty: ctx.repo.empty ?? false,
      defaultBranch: ctx.repo.defaultBranch,
      base: `/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`,
      cloneHttp: summary.clone_url,
      cloneSsh: summary.ssh_url,
      archived: summary.archived,
      openIssues: summary.open_issues_count,
      openPulls: summary.open_pr_counter,
      // The settings pages are for those who may edit the repository.
      canAdmin: meetsSubjectAccess(ctx.access, RepoSubjects.repositoryEdit) || (ctx.actor?.isAdmin ?? false),
    };
  }

  async refNames(ctx: RepoContext): Promise<RefNamesReply> {
    return this.rpc.send(RepoSubjects.refNames, { ...ctx, limit: REF_NAMES_MAX });
  }

  /** The home page without `kind`; null for an empty repository. Header, ref names and listing load side by side. */
  async browse(ctx: RepoContext, kind?: RefKind, rest = '', options: { source?: boolean } = {}): Promise<TreeView | FileView | null> {
    if (ctx.repo.empty) return null;
    const site = siteOf(ctx);
    const header = quiet(this.header(ctx));
    const names = quiet(this.refNames(ctx));
    const read = (target: RefPath) => this.rpc.send(RepoSubjects.contentsGet, {
      ...ctx, path: target.path, ref: target.ref, maxBlobSize: FILE_VIEW_MAX_BYTES, withCommits: true,
    });
    // The listing starts at once with the likely split of the path (a ref name without `/`), beside the names that
    // confirm it; a name with a slash reads again.
    const likely = kind ? likelyRefPath(kind, rest) : { kind: 'branch' as const, ref: ctx.repo.defaultBranch, path: '' };
    const early = quiet(read(likely));
    const at = kind ? splitOrNotFound(kind, rest, await names) : likely;
    const reply = at.ref === likely.ref && at.path === likely.path ? await early : await read(at);
    const ref: RefView = { ...at, names: await names };
    const crumbs = breadcrumbs(site, ref);
    if (!reply.dir) return toFileView(await header, ref, crumbs, reply.file!, options.source === true);
    const historyUrl = refUrl(site.base, 'commits', ref.kind, ref.ref, ref.path);
    const dir = reply.dir;
    const readme = await this.readme(ctx, site, ref, dir);
    // The entries' last commits (ids from the last-commit cache) and the folder's history count came with the listing.
    const commits = new Map((reply.commits ?? []).map((c) => [c.sha, c]));
    const entries = [...dir]
      .sort((a, b) => Number(b.type === 'dir') - Number(a.type === 'dir') || a.name.localeCompare(b.name))
      .map((e): TreeEntryView => {
        const c = e.last_commit_sha ? commits.get(e.last_commit_sha) : undefined;
        return {
          name: e.name,
          type: e.type,
          url: refUrl(site.base, 'src', ref.kind, ref.ref, e.path),
          size: e.type === 'file' || e.type === 'symlink' ? e.size : null,
          lastCommit: c ? { sha: c.sha, title: c.title, url: `${site.base}/commit/${c.sha}`, date: c.authorDate } : null,
        };
      });
    const newest = reply.latestCommit ? commits.get(reply.latestCommit) : undefined;
    const latest: LatestCommitView | null = newest
      ? {
          commit: {
            sha: newest.sha, shortSha: newest.sha.slice(0, 10), title: newest.title, url: `${site.base}/commit/${newest.sha}`,
            authorName: newest.authorName, authorLogin: newest.authorLogin, date: newest.authorDate,
          },
          total: reply.historyCount ?? 0,
          historyUrl,
        }
      : null;
    return {
      header: await header,
      ref,
      switcher: refSwitcher(site, ref, 'src'),
      historyUrl,
      crumbs,
      latest,
      entries,
      readme,
    };
  }

  /** A README's text through `repo.raw.get` (bytes only: no last-commit lookup as `contents` does). */
  private async readmeText(ctx: RepoContext, ref: string, path: string): Promise<string | null> {
    const blob = await this.rpc.send(RepoSubjects.rawGet, { ...ctx, path, ref, maxInlineBytes: MARKDOWN_MAX_BYTES });
    return blob.type === 'file' && blob.contentBase64 !== null ? Buffer.from(blob.contentBase64, 'base64').toString('utf8') : null;
  }

  /** Cached by blob id and link bases, so a popular home page costs no README fetch or render. */
  private async readme(ctx: RepoContext, site: Site, ref: RefView, dir: ContentsResponseDto[]): Promise<TreeView['readme']> {
    const candidates = dir.filter((e) => e.type === 'file' && /^readme(\.[a-z]+)?$/i.test(e.name));
    const entry = candidates.find((e) => isMarkdownName(e.name)) ?? candidates[0];
    if (!entry || entry.size > MARKDOWN_MAX_BYTES) return null;
    const folder = ref.path ? `${ref.path}/` : '';
    const linkBase = `${refUrl(site.base, 'src', ref.kind, ref.ref, folder)}/`.replace(/\/+$/, '/');
    const imageBase = `${refUrl(site.base, 'raw', ref.kind, ref.ref, folder)}/`.replace(/\/+$/, '/');
    const key = `${entry.sha}\0${entry.name}\0${linkBase}\0${imageBase}`;
    const cached = this.renderedReadmes.get(key);
    if (cached) return cached;
    const text = await this.readmeText(ctx, ref.ref, entry.path);
    if (text === null) return null;
    const readme = isMarkdownName(entry.name)
      ? { name: entry.name, html: renderMarkdown(text, linkBase, imageBase, site.base), markdown: true }
      : { name: entry.name, html: `<pre>${escapeHtml(text)}</pre>`, markdown: false };
    if (readme.html.length <= README_CACHE_MAX_CHARS) this.renderedReadmes.set(key, readme);
    return readme;
  }

  async rawTarget(ctx: RepoContext, kind: RefKind, rest: string): Promise<RefPath> {
    return splitOrNotFound(kind, rest, await this.refNames(ctx));
  }

  /** One page of the history of a ref (and path), each commit with its verification badge; null when empty. */
  async history(ctx: RepoContext, kind: RefKind, rest: string, page: number): Promise<CommitsView | null> {
    if (ctx.repo.empty) return null;
    const site = siteOf(ctx);
    const header = quiet(this.header(ctx));
    const names = await this.refNames(ctx);
    const ref: RefView = { ...splitOrNotFound(kind, rest, names), names };
    const reply = await this.rpc.send(RepoSubjects.commitList, {
      ...ctx,
      filter: { sha: ref.ref, path: ref.path || undefined, page, limit: COMMITS_PAGE_SIZE },
      options: { stat: false, verification: true, files: false },
    });
    const here = refUrl(site.base, 'commits', ref.kind, ref.ref, ref.path);
    const pages = Math.ceil(reply.total / reply.pageSize);
    return {
      header: await header,
      ref,
      switcher: refSwitcher(site, ref, 'commits'),
      commits: reply.items.map((c) => toCommitRow(site, c)),
      page: reply.page,
      total: reply.total,
      prevUrl: reply.page > 1 ? `${here}?page=${reply.page - 1}` : null,
      nextUrl: reply.page < pages ? `${here}?page=${reply.page + 1}` : null,
    };
  }

  /** One commit with its badge and its diff (a diff past the byte cap is not shown). */
  async commit(ctx: RepoContext, sha: string, style: DiffStyle): Promise<CommitView> {
    const site = siteOf(ctx);
    const [header, c, diff] = await Promise.all([
      this.header(ctx),
      this.rpc.send(RepoSubjects.commitGet, { ...ctx, sha, options: { stat: false, verification: true, files: false } }),
      this.rpc.send(RepoSubjects.commitDiff, { ...ctx, sha, maxBytes: COMMIT_DIFF_MAX_BYTES }),
    ]);
    const row = toCommitRow(site, c);
    const message = c.commit.message;
    const nl = message.indexOf('\n');
    return {
      header,
      commit: {
        ...row,
        body: nl < 0 ? '' : message.slice(nl + 1).trim(),
        parents: c.parents.map((p) => p.sha),
        committerName: c.commit.committer.name,
        browseUrl: refUrl(site.base, 'src', 'commit', c.sha),
      },
      diff: diffView(diff.tooLarge ? [] : parseUnifiedDiff(diff.patch), {
        style,
        headBlobUrl: (path) => refUrl(site.base, 'src', 'commit', c.sha, path),
        excerptUrl: (path, from, to, shift) => excerptUrl(site.base, c.sha, path, from, to, shift, style),
      }),
      tooLarge: diff.tooLarge,
    };
  }
}

export interface Site {
  name: string;
  base: string;
}

export function siteOf(ctx: RepoContext): Site {
  return { name: ctx.repo.name, base: `/${encodeURIComponent(ctx.repo.ownerName)}/${encodeURIComponent(ctx.repo.name)}` };
}

/** Marks a promise awaited later as handled, so a failure while another call is awaited is not "unhandled". */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

function splitOrNotFound(kind: RefKind, rest: string, names: RefNamesReply): RefPath {
  const split = splitRefPath(kind, rest, names);
  if (!split) throw DomainError.notFound('no such branch, tag or commit');
  return split;
}

function breadcrumbs(site: Site, ref: RefPath): Breadcrumb[] {
  const crumbs: Breadcrumb[] = [{ name: site.name, url: refUrl(site.base, 'src', ref.kind, ref.ref) }];
  const segs = ref.path ? ref.path.split('/') : [];
  segs.forEach((name, i) => crumbs.push({ name, url: refUrl(site.base, 'src', ref.kind, ref.ref, segs.slice(0, i + 1).join('/')) }));
  return crumbs;
}

function toFileView(header: RepoHeader, ref: RefView, crumbs: Breadcrumb[], file: ContentsResponseDto, source: boolean): FileView {
  const rawUrl = refUrl(header.base, 'raw', ref.kind, ref.ref, ref.path);
  const fileUrl = refUrl(header.base, 'src', ref.kind, ref.ref, ref.path);
  const base = {
    header, ref, crumbs, name: file.name, size: file.size, rawUrl, language: null,
    blameUrl: refUrl(header.base, 'blame', ref.kind, ref.ref, ref.path),
    switcher: refSwitcher(header, ref, 'src'),
    historyUrl: refUrl(header.base, 'commits', ref.kind, ref.ref, ref.path),
    display: 'source' as FileView['display'], markdownHtml: null, sourceUrl: null, renderedUrl: null,
  };
  // Images are shown from their raw URL (served sandboxed, SVG included); PDFs are linked (the page's CSP embeds nothing).
  if (file.type === 'file' && imageTypeForName(file.name)) return { ...base, display: 'image', lines: null, binary: false, tooLarge: false };
  if (file.type === 'file' && /\.pdf$/i.test(file.name)) return { ...base, display: 'pdf', lines: null, binary: false, tooLarge: false };
  if (file.type !== 'file' || file.content === null || file.size > FILE_VIEW_MAX_BYTES) {
    const text = file.type === 'symlink' && file.target !== null ? [file.target] : null;
    return { ...base, lines: text, binary: false, tooLarge: text === null && file.type === 'file' };
  }
  const bytes = Buffer.from(file.content, 'base64');
  if (bytes.subarray(0, 8000).includes(0)) return { ...base, lines: null, binary: true, tooLarge: false };
  const text = bytes.toString('utf8');
  if (isMarkdownName(file.name) && bytes.length <= MARKDOWN_MAX_BYTES && !source) {
    const folder = ref.path.includes('/') ? ref.path.slice(0, ref.path.lastIndexOf('/') + 1) : '';
    const linkBase = `${refUrl(header.base, 'src', ref.kind, ref.ref, folder)}/`.replace(/\/+$/, '/');
    const imageBase = `${refUrl(header.base, 'raw', ref.kind, ref.ref, folder)}/`.replace(/\/+$/, '/');
    return {
      ...base, display: 'markdown', markdownHtml: renderMarkdown(text, linkBase, imageBase), sourceUrl: `${fileUrl}?display=source`,
      lines: null, binary: false, tooLarge: false,
    };
  }
  const { language, lines } = highlightLines(text, file.name);
  const renderedUrl = isMarkdownName(file.name) && bytes.length <= MARKDOWN_MAX_BYTES ? fileUrl : null;
  return { ...base, lines, binary: false, tooLarge: false, language, renderedUrl };
}

/** Links to the same section and path at every listed branch and tag. */
export function refSwitcher(site: Site, ref: RefView, section: 'src' | 'commits'): RefSwitcher {
  const choice = (kind: RefKind) => (name: string) => ({
    name, url: refUrl(site.base, section, kind, name, ref.path), current: ref.kind === kind && ref.ref === name,
  });
  return {
    label: ref.kind === 'commit' ? ref.ref.slice(0, 10) : ref.ref,
    kindLabel: ref.kind === 'tag' ? 'Tag' : ref.kind === 'commit' ? 'Commit' : 'Branch',
    branches: ref.names.branches.map(choice('branch')),
    tags: ref.names.tags.map(choice('tag')),
    truncated: ref.names.truncated,
  };
}

function toCommitRow(site: Site, c: CommitDto): CommitRowView {
  const message = c.commit.message;
  const nl = message.indexOf('\n');
  return {
    sha: c.sha,
    shortSha: c.sha.slice(0, 10),
    title: nl < 0 ? message : message.slice(0, nl),
    authorName: c.commit.author.name,
    authorLogin: c.author?.login ?? null,
    date: c.commit.author.date,
    url: `${site.base}/commit/${c.sha}`,
    badge: verificationBadge(c.commit.verification),
  };
}
