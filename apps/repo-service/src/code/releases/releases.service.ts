import { Injectable } from '@nestjs/common';
import {
  DomainError, RELEASE_TAG_MAX_LENGTH, ReleaseEvents, isValidRefName, placeholderUser, toPaging,
  type ActorDto, type CreateReleaseRequest, type EditReleaseRequest, type ListReleasesRequest, type Paginated,
  type ReleaseDto, type ReleaseEventData, type ReleaseIdRequest, type ReleaseTagRequest, type RepoScopedRequest, type UserDto,
} from '@cairn/contracts';
import { EventOutbox, cutText } from '@cairn/platform';
import { TagsService } from '../git-data/tags.service.js';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { PrismaService, type Tx } from '../../foundation/prisma/prisma.service.js';
import { RepoViews } from '../../git-core/repositories/repo-views.js';
import { inTx } from '../../foundation/prisma/tx.js';
import { AttachmentsService } from './attachments.service.js';
import { seesDrafts } from './release-visibility.js';
import { toReleaseDto } from './releases.mapper.js';
import { ReleasesRepository, type ReleaseChanges, type ReleaseRow } from './releases.repository.js';

function assertTagName(name: string): void {
  if (name.length > RELEASE_TAG_MAX_LENGTH || !isValidRefName(name)) throw DomainError.unprocessable(`invalid tag name "${name}"`);
}

// A published release's tag is created when missing (through {@link TagsService}, recorded like a pushed tag); a
// draft's waits until published. Deleting a release keeps its tag. `release` webhooks go through the outbox.
@Injectable()
export class ReleasesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly releases: ReleasesRepository,
    private readonly tags: TagsService,
    private readonly views: RepoViews,
    private readonly git: GitReadContext,
    private readonly outbox: EventOutbox,
    private readonly attachments: AttachmentsService,
  ) {}

  async list(req: ListReleasesRequest): Promise<Paginated<ReleaseDto>> {
    const filter = {
      isDraft: seesDrafts(req) ? req.draft : false,
      ...(req.prerelease === undefined ? {} : { isPrerelease: req.prerelease }),
    };
    const { rows, total } = await this.releases.list(req.repo.id, filter, toPaging(req.query));
    return { items: await this.toDtos(req, rows), total };
  }

  async get(req: ReleaseIdRequest): Promise<ReleaseDto> {
    return (await this.toDtos(req, [await this.visible(req, await this.releases.byId(req.repo.id, req.id))]))[0];
  }

  async getByTag(req: ReleaseTagRequest): Promise<ReleaseDto> {
    return (await this.toDtos(req, [await this.visible(req, await this.releases.byTag(req.repo.id, req.tag))]))[0];
  }

  async latest(req: RepoScopedRequest): Promise<ReleaseDto> {
    const row = await this.releases.latest(req.repo.id);
    if (!row) throw DomainError.notFound('release does not exist');
    return (await this.toDtos(req, [row]))[0];
  }

  async create(req: CreateReleaseRequest): Promise<ReleaseDto> {
    const actor = await this.tags.assertWritable(req);
    const body = req.body;
    assertTagName(body.tag_name);
    if ((await this.views.row(req.repo.id)).isEmpty) throw DomainError.unprocessable('repo is empty');
    if (await this.releases.byTag(req.repo.id, body.tag_name)) {
      throw DomainError.conflict(`release tag already exist [tag_name: ${body.tag_name}]`);
    }
    const target = body.target_commitish?.trim() || req.repo.defaultBranch;
    const draft = body.draft === true;
    const sha1 = draft ? '' : await this.tags.ensureTag(req.repo, actor, body.tag_name, target, body.tag_message);
    return this.write(req, actor, draft ? null : 'published', (tx) =>
      this.releases.insert(tx, {
        repoId: req.repo.id,
        tagName: body.tag_name,
        target,
        title: body.name ?? '',
        note: body.body ?? '',
        isDraft: draft,
        isPrerelease: body.prerelease === true,
        publisherId: actor.id,
        sha1,
      }),
    );
  }

  /** Gitea's `EditRelease`: empty strings keep a field; publishing a draft (or a new tag name) creates the tag. */
  async edit(req: EditReleaseRequest): Promise<ReleaseDto> {
    const actor = await this.tags.assertWritable(req);
    const row = await this.releases.byId(req.repo.id, req.id);
    if (!row) throw DomainError.notFound('release does not exist');
    const b = req.body;
    const changes: ReleaseChanges = {};
    if (b.tag_name) {
      assertTagName(b.tag_name);
      changes.tagName = b.tag_name;
    }
    if (b.target_commitish) changes.target = b.target_commitish;
    if (b.name) changes.title = b.name;
    if (b.body) changes.note = b.body;
    if (b.draft !== undefined) changes.isDraft = b.draft;
    if (b.prerelease !== undefined) changes.isPrerelease = b.prerelease;
    const next = { ...row, ...changes };
    if (!next.isDraft) changes.sha1 = await this.tags.ensureTag(req.repo, actor, next.tagName, next.target);
    const action = next.isDraft ? null : row.isDraft ? 'published' : 'updated';
    return this.write(req, actor, action, (tx) => this.releases.update(tx, req.repo.id, row.id, changes));
  }

  async delete(req: ReleaseIdRequest): Promise<null> {
    return this.remove(req, await this.releases.byId(req.repo.id, req.id));
  }

  async deleteByTag(req: ReleaseTagRequest): Promise<null> {
    return this.remove(req, await this.releases.byTag(req.repo.id, req.tag));
  }

  private async remove(req: RepoScopedRequest, row: ReleaseRow | null): Promise<null> {
    const actor = await this.tags.assertWritable(req);
    if (!row) throw DomainError.notFound('release does not exist');
    let blobs: string[] = [];
    await this.write(req, actor, row.isDraft ? null : 'deleted', async (tx) => {
      blobs = await this.attachments.blobsOf(req.repo.id, row.id, tx);
      if (!(await this.releases.remove(tx, req.repo.id, row.id))) throw DomainError.notFound('release does not exist');
      return row;
    });
    // The rows went with the release (cascade); their blobs follow.
    await this.attachments.releaseBlobs(blobs);
    return null;
  }

  /** Runs a change and, for a published release, records its `release` event in the same transaction. */
  private async write(
    req: RepoScopedRequest,
    actor: ActorDto,
    action: ReleaseEventData['action'] | null,
    change: (tx: Tx) => Promise<ReleaseRow>,
  ): Promise<ReleaseDto> {
    const users = await this.views.users([actor.id, req.repo.ownerId]);
    const repo = action ? await this.views.repository(req.repo.id, req.access, users) : null;
    const sender = await this.views.sender(actor, users);
    const dto = await inTx(this.prisma, async (tx) => {
      const row = await change(tx);
      const out = (await this.toDtos(req, [row], users))[0];
      if (action && repo) {
        await this.outbox.record(tx, ReleaseEvents[action], {
          action,
          release: { ...out, body: cutText(out.body) },
          repository: repo.event,
          sender,
        });
      }
      return out;
    });
    if (action) this.outbox.kick();
    return dto;
  }

  private visible(req: RepoScopedRequest, row: ReleaseRow | null): ReleaseRow {
    if (!row || (row.isDraft && !seesDrafts(req))) throw DomainError.notFound('release does not exist');
    return row;
  }

  private async toDtos(req: RepoScopedRequest, rows: ReleaseRow[], known?: Map<number, UserDto>): Promise<ReleaseDto[]> {
    const missing = rows.map((r) => r.publisherId).filter((id) => !known?.has(id));
    const users = missing.length ? new Map([...(known ?? []), ...(await this.views.users(missing))]) : (known ?? new Map());
    const api = this.git.apiUrl(req.repo);
    const html = this.git.htmlUrl(req.repo);
    const assets = await this.attachments.forReleases(req.repo.id, rows, html);
    return rows.map((r) =>
      toReleaseDto(r, users.get(r.publisherId) ?? placeholderUser(r.publisherId, '', this.views.rootUrl), api, html, assets.get(r.id) ?? []),
    );
  }
}
