import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DomainError, ErrorCode, NOT_SIGNED_VERIFICATION, isObjectId, isValidBranchName, zeroIdLike,
  type ChangeFileOperationBody, type ChangeFilesReply, type ChangeFilesRequest, type ContentsResponseDto,
  type ActorDto, type FileCommitResponseDto, type FileOperation, type RepoRefDto, type RepoTrustModel, toApiTime
} from '@cairn/contracts';
import {
  branchRef, commitTree, type GitIdentity, loggedCommit, lookupPaths, resolveBranch, sanitizeTreePath,
  type TreeEdit, type TreeEntry, updateRef, writeBlob, writeEditedTree,
} from '@cairn/git';
import { ContentsService } from '../contents/contents.service.js';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { userGitIdentity } from '../../git-core/repositories/user-identity.js';
import { CommitVerifier } from '../../git-core/signatures/commit-verifier.js';
import { CommitSigner } from '../../git-core/merge/commit-signer.js';
import { requireActor } from '../../foundation/access/require-actor.js';
import { RepoViews } from '../../git-core/repositories/repo-views.js';
import { PUSH_SINK, type PushSink } from '../../git-core/transport/push-sink.js';
import { PushProtection } from '../branch-protection/push-protection.service.js';
import { commitDates, commitIdentities, commitMessage, defaultCommitMessage } from './commit-details.js';

const unprocessable = (message: string) => DomainError.unprocessable(message);

/** Before a branch that keeps moving is answered with 409. */
const MAX_ATTEMPTS = 5;

interface PlannedFile {
  operation: FileOperation;
  path: string;
  fromPath: string;
  sha: string | undefined;
  content: Buffer | null;
}

/** Go's decoder skips line breaks. */
function decodeBase64(text: string, path: string): Buffer {
  const clean = text.replace(/[\r\n]/g, '');
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) {
    throw unprocessable(`content of "${path}" is not valid base64`);
  }
  return Buffer.from(clean, 'base64');
}

/** git silently refuses these in an index (`core.protectNTFS`/`protectHFS`). */
function gitIgnoresSegment(segment: string): boolean {
  const bare = segment.toLowerCase().replace(/[. ]+$/, '');
  return bare === '.git' || bare === 'git~1' || segment.includes('\\');
}

/** As Gitea's `CleanGitTreePath` accepts and git writes it (422 otherwise). */
function treePath(raw: string): string {
  const clean = sanitizeTreePath(raw);
  if (!clean || clean.split('/').some(gitIgnoresSegment)) {
    throw unprocessable(`path contains a malformed path component [path: ${raw}]`);
  }
  return clean;
}

function prefixes(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** Gitea's contents write API in plumbing; `update-ref <new> <old>` lets a concurrent push win (409). */
@Injectable()
export class FileChangesService {
  private readonly logger = new Logger('FileChangesService');

  constructor(
    private readonly git: GitReadContext,
    private readonly contents: ContentsService,
    private readonly views: RepoViews,
    private readonly signer: CommitSigner,
    @Inject(PUSH_SINK) private readonly recordPush: PushSink,
    private readonly verifier: CommitVerifier,
    private readonly protection: PushProtection,
  ) {}

  async change(req: ChangeFilesRequest): Promise<ChangeFilesReply> {
    const actor = requireActor(req.actor);
    const body = req.body;
    const row = await this.views.row(req.repo.id);
    if (row.isArchived) throw new DomainError(ErrorCode.LOCKED, 'repo is archived');

    const oldBranch = body.branch?.trim() || row.defaultBranch;
    const newBranch = body.new_branch?.trim() || oldBranch;
    for (const b of new Set([oldBranch, newBranch])) {
      if (!isValidBranchName(b)) throw unprocessable(`invalid branch name "${b}"`);
    }
    const files = body.files.map((f) => this.plan(f));
    const dates = commitDates(body.dates);
    if ('invalid' in dates) throw unprocessable(`${dates.invalid} is not an RFC 3339 date`);

    const dir = this.git.pathOf(req.repo);
    const users = await this.views.users([actor.id]);
    const doer = userGitIdentity(users.get(actor.id), actor.login, this.views.rootUrl);
    const people = commitIdentities(body.author, body.committer, doer);
    const message = commitMessage(body.message?.trim() || defaultCommitMessage(files), !!body.signoff, people.committer);
    const attempt: Attempt = {
      dir, oldBranch, newBranch, files, message, repoEmpty: row.isEmpty, forcePush: !!body.force_push, actor, repo: req.repo, trustModel: row.trustModel as RepoTrustModel,
      author: { ...people.author, date: dates.author },
      committer: { ...people.committer, date: dates.committer },
    };
    // A moved branch means retrying from its new tip, where every check runs again; each lost race is someone's win.
    let done: Committed | null = null;
    for (let i = 0; i < MAX_ATTEMPTS && !done; i++) done = await this.commitOnce(attempt);
    if (!done) throw DomainError.conflict(`could not move the branch "${newBranch}": it kept moving while the files were being changed, or its name clashes with another branch`);
    const { commit, expectedOld, created } = done;
    const ref = branchRef(newBranch);
    this.logger.log(`repository ${req.repo.id}: ${ref} ${expectedOld ?? 'created'} -> ${commit} (${files.length} file(s))`);
    await this.recordPush(
      { repoId: req.repo.id, dir, pusherId: actor.id, via: 'api', journalId: randomUUID() },
      [{ ref, old: expectedOld ?? zeroIdLike(commit), new: commit }],
    );

    const resolved = { kind: 'branch' as const, name: newBranch, input: newBranch, commit };
    const deferred: number[] = [];
    const answers: (ContentsResponseDto | null)[] = [];
    for (const f of files) {
      const entry = await this.contents.fileAt(req.repo, resolved, f.path, req.maxBlobSize);
      if (entry?.deferred) deferred.push(answers.length);
      answers.push(entry?.file ?? null);
    }
    return {
      response: {
        files: answers,
        commit: await this.commitResponse(req, dir, commit, message),
        verification: (await this.verifier.verifyCommits(req.repo, [commit])).get(commit) ?? { ...NOT_SIGNED_VERIFICATION },
      },
      deferred,
      created,
    };
  }

  private async commitOnce(a: Attempt): Promise<Committed | null> {
    const base = await resolveBranch(a.dir, a.oldBranch);
    if (!base && (!a.repoEmpty || a.files.some((f) => f.operation === 'delete'))) {
      throw DomainError.notFound(`branch does not exist [name: ${a.oldBranch}]`);
    }
    let expectedOld: string | null = base;
    if (a.newBranch !== a.oldBranch) {
      const existing = await resolveBranch(a.dir, a.newBranch);
      if (existing && !a.forcePush) throw unprocessable(`branch already exists [name: ${a.newBranch}]`);
      expectedOld = existing;
    }

    const edits = base ? await this.check(a.dir, base, a.files) : this.editsOfEmpty(a.files);
    let created = false;
    const treeEdits: TreeEdit[] = [];
    for (const e of edits) {
      if (e.removeFrom) treeEdits.push({ path: e.removeFrom, remove: true });
      if (e.write) {
        const blob = e.write.content ? await writeBlob(a.dir, e.write.content) : e.write.blob!;
        treeEdits.push({ path: e.write.path, mode: e.write.mode, blob });
      }
      created ||= e.created;
    }
    const tree = await writeEditedTree(a.dir, base, treeEdits);
    const signing = await this.signer.decide('crud', { gitDir: a.dir, repo: a.repo, trustModel: a.trustModel, actorId: a.actor.id, actor: a.actor, parentCommit: base });
    const commit = await commitTree(a.dir, tree, base ? [base] : [], a.message, a.author, a.committer, signing);
    // Branch protection applies as to a push of this commit (Gitea's 403).
    await this.protection.assertAllowed({
      repoId: a.repo.id, actorId: a.actor.id, dir: a.dir,
      updates: [{ ref: branchRef(a.newBranch), old: expectedOld ?? zeroIdLike(commit), new: commit }],
    });
    const reason = `cairn: ${a.files.length} file(s) changed through the API`;
    if (!(await updateRef(a.dir, branchRef(a.newBranch), commit, expectedOld, reason))) return null;
    return { commit, expectedOld, created };
  }

  /** 422 for anything unusable, before git is touched. */
  private plan(f: ChangeFileOperationBody): PlannedFile {
    const path = treePath(f.path);
    const fromPath = f.from_path ? treePath(f.from_path) : path;
    const needsContent = f.operation !== 'delete' && !(f.operation === 'rename' && f.content === undefined);
    return {
      operation: f.operation,
      path,
      fromPath,
      sha: f.sha?.trim() || undefined,
      content: needsContent ? decodeBase64(f.content ?? '', path) : null,
    };
  }

  /** A stale sha naming an earlier blob here is a conflict (409, as GitHub); one naming nothing stays Gitea's 422. */
  private async staleShas(dir: string, files: PlannedFile[], found: Map<string, TreeEntry | null>): Promise<Set<string>> {
    const candidates = [
      ...new Set(files.filter((f) => f.sha && isObjectId(f.sha) && f.sha !== found.get(f.fromPath)?.oid).map((f) => f.sha!)),
    ];
    if (candidates.length === 0) return new Set();
    const infos = await this.git.pool.run(dir, candidates.map((object) => ({ op: 'info' as const, object })));
    return new Set(candidates.filter((_, i) => infos[i]?.type === 'blob'));
  }

  private editsOfEmpty(files: PlannedFile[]): FileEdit[] {
    const seen = new Set<string>();
    return files.map((f) => {
      if (f.operation !== 'create' && f.operation !== 'upload') throw DomainError.notFound(`file does not exist [path: ${f.fromPath}]`);
      if (seen.has(f.path) && f.operation === 'create') throw unprocessable(`repository file already exists [path: ${f.path}]`);
      seen.add(f.path);
      return { write: { path: f.path, mode: '100644', content: f.content! }, created: true };
    });
  }

  /** Gitea's `handleCheckErrors`, for every file before anything is written. */
  private async check(dir: string, base: string, files: PlannedFile[]): Promise<FileEdit[]> {
    const wanted = new Set<string>();
    for (const f of files) {
      wanted.add(f.fromPath);
      for (const p of prefixes(f.path)) wanted.add(p);
    }
    const list = [...wanted];
    const found = new Map<string, TreeEntry | null>();
    (await lookupPaths(this.git.pool, dir, base, list)).forEach((e, i) => found.set(list[i], e));

    const stale = await this.staleShas(dir, files, found);
    return files.map((f): FileEdit => {
      let from: TreeEntry | null = null;
      if (f.operation !== 'create') {
        from = found.get(f.fromPath) ?? null;
        if (from && from.kind !== 'file' && from.kind !== 'symlink') {
          throw unprocessable(`a directory or submodule is not a file [path: ${f.fromPath}]`);
        }
        if (!from && f.operation !== 'upload') throw DomainError.notFound(`file does not exist [path: ${f.fromPath}]`);
        if (f.sha) {
          if (f.sha !== from?.oid && stale.has(f.sha)) {
            throw DomainError.conflict(`file has changed since sha ${f.sha} [path: ${f.fromPath}, current sha: ${from?.oid ?? ''}]`);
          }
          if (f.sha !== from?.oid) throw unprocessable(`sha does not match [given: ${f.sha}, expected: ${from?.oid ?? ''}]`);
        } else if (f.operation !== 'upload') {
          throw unprocessable('a SHA or commit ID must be provided when updating a file');
        }
      }
      if (f.operation === 'delete') return { removeFrom: f.fromPath, created: false };

      const steps = prefixes(f.path);
      for (let i = 0; i < steps.length; i++) {
        const entry = found.get(steps[i]);
        if (!entry) break;
        if (i < steps.length - 1) {
          if (entry.kind !== 'dir') {
            throw unprocessable(`a file exists where you’re trying to create a subdirectory [path: ${steps[i]}]`);
          }
        } else if (entry.kind === 'symlink' && f.fromPath === f.path && f.operation !== 'create') {
          // Replacing a symlink with a file in place is an update like any other.
        } else if (entry.kind === 'dir' || entry.kind === 'submodule') {
          throw unprocessable(`a directory exists where you’re trying to create a file [path: ${steps[i]}]`);
        } else if (f.fromPath !== f.path || f.operation === 'create') {
          throw unprocessable(`repository file already exists [path: ${f.path}]`);
        }
      }
      const mode = from?.mode === '100755' ? '100755' : '100644';
      const moved = f.fromPath !== f.path && from;
      return {
        removeFrom: moved ? f.fromPath : undefined,
        write: f.content ? { path: f.path, mode, content: f.content } : { path: f.path, mode: from?.mode === '120000' ? '120000' : mode, blob: from!.oid },
        created: !from,
      };
    });
  }

  private async commitResponse(req: ChangeFilesRequest, dir: string, sha: string, message: string): Promise<FileCommitResponseDto> {
    const c = await loggedCommit(dir, sha);
    const apiUrl = this.git.apiUrl(req.repo);
    const utc = (iso: string) => toApiTime(new Date(iso));
    return {
      url: `${apiUrl}/git/commits/${sha}`,
      sha,
      created: c.committerDate,
      html_url: `${this.git.htmlUrl(req.repo)}/commit/${sha}`,
      author: { name: c.authorName, email: c.authorEmail, date: utc(c.authorDate) },
      committer: { name: c.committerName, email: c.committerEmail, date: utc(c.committerDate) },
      parents: c.parents.map((p) => ({ url: `${apiUrl}/git/commits/${p}`, sha: p, created: '0001-01-01T00:00:00Z' })),
      message,
      // Gitea links the tree by the commit's own id.
      tree: { url: `${apiUrl}/git/trees/${sha}`, sha, created: c.committerDate },
    };
  }
}

interface Attempt {
  dir: string;
  oldBranch: string;
  newBranch: string;
  files: PlannedFile[];
  message: string;
  repoEmpty: boolean;
  forcePush: boolean;
  actor: ActorDto;
  repo: RepoRefDto;
  trustModel: RepoTrustModel;
  author: GitIdentity;
  committer: GitIdentity;
}

interface Committed {
  commit: string;
  /** Null: the branch is new. */
  expectedOld: string | null;
  created: boolean;
}

interface FileEdit {
  removeFrom?: string;
  write?: { path: string; mode: '100644' | '100755' | '120000'; content?: Buffer; blob?: string };
  created: boolean;
}
