import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  DomainError, ErrorCode, isValidRefName, isValidRefNameAfterPrefix, toPaging, zeroIdLike,
  type ActorDto, type CreateTagRequest, type ListTagsRequest, type RepoRefDto, type Paginated, type RepoScopedRequest, type TagDto, type TagNameRequest,
} from '@cairn/contracts';
import {
  assertOid, deleteRef, listRefs, parseCommitObject, parseTagObject, refTarget, resolveRef, updateRef, writeAnnotatedTag,
} from '@cairn/git';
import { PushProtection } from '../branch-protection/push-protection.service.js';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { userGitIdentity } from '../../git-core/repositories/user-identity.js';
import { requireActor } from '../../foundation/access/require-actor.js';
import { RepoViews } from '../../git-core/repositories/repo-views.js';
import { PUSH_SINK, type PushSink } from '../../git-core/transport/push-sink.js';
import { toTagDto, type TagFacts } from './git-data.mapper.js';
import { TAG_DELETE_GUARD, type TagDeleteGuard } from './tag-delete-guard.js';

/** Longest tag name the API creates (Gitea's `CreateTagOption` `MaxSize(100)`). */
const TAG_NAME_MAX_LENGTH = 100;

interface TagRef {
  name: string;
  oid: string;
  type: string;
}

/** Written with `mktag` + `update-ref` (never overwriting) and recorded like a push, so webhooks and events follow. */
@Injectable()
export class TagsService {
  private readonly logger = new Logger('TagsService');

  constructor(
    private readonly git: GitReadContext,
    private readonly views: RepoViews,
    private readonly protection: PushProtection,
    @Inject(PUSH_SINK) private readonly recordPush: PushSink,
    @Optional() @Inject(TAG_DELETE_GUARD) private readonly deleteGuard: TagDeleteGuard | null,
  ) {}

  /** Newest first (creator date: tagger's, or the commit's for a lightweight tag), as Gitea's `GetTagInfos`. */
  async list(req: ListTagsRequest): Promise<Paginated<TagDto>> {
    if (req.repo.empty) return { items: [], total: 0 };
    const dir = this.git.pathOf(req.repo);
    const refs = await listRefs(dir, { patterns: ['refs/tags/'], sort: ['-creatordate'] });
    const all: TagRef[] = refs.map((r) => ({ oid: r.oid, type: r.type, name: r.ref.slice('refs/tags/'.length) }));
    const paging = toPaging(req.query);
    const page = all.slice(paging.skip, paging.skip + paging.take);
    return { items: await this.toDtos(req, dir, page), total: all.length };
  }

  async get(req: TagNameRequest): Promise<TagDto> {
    const dir = this.git.pathOf(req.repo);
    const found = await this.find(dir, req.tag);
    if (!found) throw DomainError.notFound(`tag doesn't exist: ${req.tag}`);
    return (await this.toDtos(req, dir, [found]))[0];
  }

  async create(req: CreateTagRequest): Promise<TagDto> {
    const actor = await this.assertWritable(req);
    const { tag_name: name, message } = req.body;
    if (name.length > TAG_NAME_MAX_LENGTH || !isValidRefName(name)) throw DomainError.unprocessable(`invalid tag name "${name}"`);
    const dir = this.git.pathOf(req.repo);
    const target = req.body.target?.trim() || req.repo.defaultBranch;
    const commit = await resolveRef(this.git.pool, dir, target);
    if (!commit) throw DomainError.notFound(`target not found: ${target}`);
    if (await this.find(dir, name)) throw DomainError.conflict(`tag ${name} already exists`);

    await this.writeTag(req.repo, dir, actor, name, commit.commit, message);
    return this.get({ ...req, tag: name });
  }

  /** Creates tag `name` at `target` when missing (Gitea's release `createTag`); NOT_FOUND for an unknown target. */
  async ensureTag(repo: RepoRefDto, actor: ActorDto, name: string, target: string, message?: string): Promise<string> {
    const dir = this.git.pathOf(repo);
    const existing = await resolveRef(this.git.pool, dir, `refs/tags/${name}`);
    if (existing) return existing.commit;
    const commit = await resolveRef(this.git.pool, dir, target);
    if (!commit) throw DomainError.notFound(`target "${target}" not found`);
    await this.writeTag(repo, dir, actor, name, commit.commit, message);
    return commit.commit;
  }

  async delete(req: TagNameRequest): Promise<null> {
    const actor = await this.assertWritable(req);
    const dir = this.git.pathOf(req.repo);
    const found = await this.find(dir, req.tag);
    if (!found) throw DomainError.notFound(`tag doesn't exist: ${req.tag}`);
    await this.deleteGuard?.assertTagDeletable(req.repo.id, found.name);
    const ref = `refs/tags/${found.name}`;
    // Tags move through the pushes' one protection decision too (where tag protection belongs).
    await this.protection.assertAllowed({ repoId: req.repo.id, actorId: actor.id, dir, updates: [{ ref, old: found.oid, new: zeroIdLike(found.oid) }] });
    if (!(await deleteRef(dir, ref, found.oid))) throw DomainError.conflict(`tag ${found.name} moved while being deleted`);
    this.logger.log(`repository ${req.repo.id}: ${ref} deleted (was ${found.oid})`);
    await this.recordPush({ repoId: req.repo.id, dir, pusherId: actor.id, via: 'api', journalId: randomUUID() }, [
      { ref, old: found.oid, new: zeroIdLike(found.oid) },
    ]);
    return null;
  }

  /** Writes `refs/tags/<name>` (never over an existing tag: 409) and records it like a push. */
  private async writeTag(repo: RepoRefDto, dir: string, actor: ActorDto, name: string, commit: string, message?: string): Promise<void> {
    let oid = assertOid(commit);
    if (message?.trim()) {
      const users = await this.views.users([actor.id]);
      const tagger = userGitIdentity(users.get(actor.id), actor.login, this.views.rootUrl);
      oid = await writeAnnotatedTag(dir, oid, name, tagger, message);
    }
    const ref = `refs/tags/${name}`;
    await this.protection.assertAllowed({ repoId: repo.id, actorId: actor.id, dir, updates: [{ ref, old: zeroIdLike(oid), new: oid }] });
    if (!(await updateRef(dir, ref, oid, null, 'cairn: tag created through the API'))) {
      throw DomainError.conflict(`tag ${name} already exists`);
    }
    this.logger.log(`repository ${repo.id}: ${ref} created at ${oid}`);
    await this.recordPush({ repoId: repo.id, dir, pusherId: actor.id, via: 'api', journalId: randomUUID() }, [
      { ref, old: zeroIdLike(oid), new: oid },
    ]);
  }

  /** The actor of a write, on a repository that is not archived (423); the level is checked by `@RpcHandler`. */
  async assertWritable(req: RepoScopedRequest) {
    const actor = requireActor(req.actor);
    if ((await this.views.row(req.repo.id)).isArchived) throw new DomainError(ErrorCode.LOCKED, 'repo is archived');
    return actor;
  }

  /** The tag ref by name (the name reaches git only as a full ref on cat-file's stdin), or null. */
  private async find(dir: string, name: string): Promise<TagRef | null> {
    if (!isValidRefNameAfterPrefix(name)) return null;
    const target = await refTarget(dir, `refs/tags/${name}`);
    if (!target) return null;
    const info = await this.git.pool.one(dir, { op: 'info', object: target });
    return info ? { name, oid: info.oid, type: info.type } : null;
  }

  private async toDtos(req: RepoScopedRequest, dir: string, tags: TagRef[]): Promise<TagDto[]> {
    if (!tags.length) return [];
    const objects = await this.git.pool.run(dir, tags.map((t) => ({ op: 'contents' as const, object: t.oid })));
    const facts: TagFacts[] = [];
    const lightweight = new Map<number, string>();
    tags.forEach((t, i) => {
      const o = objects[i];
      if (o?.type === 'tag' && o.data) {
        const parsed = parseTagObject(o.data);
        facts.push({ name: t.name, id: t.oid, commit: parsed.object, message: parsed.message, created: parsed.tagger?.date ?? '' });
      } else {
        facts.push({ name: t.name, id: t.oid, commit: t.oid, message: '', created: '' });
        lightweight.set(i, t.oid);
      }
    });
    // Annotated tags: the commit they point at (peeled); lightweight ones: their commit's message and date.
    const peel = tags.map((t) => ({ op: 'contents' as const, object: `${t.oid}^{commit}` }));
    const commits = await this.git.pool.run(dir, peel);
    commits.forEach((c, i) => {
      if (c?.type !== 'commit' || !c.data) return;
      facts[i].commit = c.oid;
      if (lightweight.has(i)) {
        const parsed = parseCommitObject(c.data);
        facts[i].message = parsed.message;
        facts[i].created = parsed.committer.date;
      }
    });
    return facts.map((f) => toTagDto(f, this.git.apiUrl(req.repo), this.git.htmlUrl(req.repo)));
  }
}
