import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, isValidAttachmentName, repoUrls,
  type AssetDownloadReply, type AssetDownloadRequest, type AssetLocateReply, type AssetLocateRequest, type AttachmentDto,
  type EditReleaseAssetRequest, type ReleaseAssetRequest, type ReleaseIdRequest, type RepoScopedRequest,
} from '@cairn/contracts';
import { BlobTooLargeError, COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { TagsService } from '../git-data/tags.service.js';
import type { Tx } from '../../foundation/prisma/prisma.service.js';
import { AttachmentBlobs } from '../../git-core/storage/attachment-blobs.js';
import { RepoViews } from '../../git-core/repositories/repo-views.js';
import { downloadBase, toAttachmentDto } from './attachments.mapper.js';
import { AttachmentsRepository, type AttachmentRow } from './attachments.repository.js';
import { ReleasesRepository, type ReleaseRow } from './releases.repository.js';
import { seesDrafts } from './release-visibility.js';
import { AttachmentUploads, type AttachmentUpload } from '../../git-core/transport/transport-ports.js';


const NOT_FOUND = 'release does not exist';

/** Readers see attachments when they see the release (drafts: writers only); bytes use internal HTTP, not the bus. */
@Injectable()
export class AttachmentsService implements AttachmentUploads {
  constructor(
    private readonly attachments: AttachmentsRepository,
    private readonly releases: ReleasesRepository,
    private readonly blobs: AttachmentBlobs,
    private readonly tags: TagsService,
    private readonly views: RepoViews,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
  ) {}

  get maxBytes(): number {
    return this.common.attachmentMaxSizeMb * 1024 * 1024;
  }

  async forReleases(repoId: number, releases: ReleaseRow[], htmlUrl: string): Promise<Map<number, AttachmentDto[]>> {
    const byRelease = new Map<number, AttachmentDto[]>(releases.map((r) => [r.id, []]));
    const tags = new Map(releases.map((r) => [r.id, r.tagName]));
    for (const row of await this.attachments.ofReleases(repoId, releases.map((r) => r.id))) {
      byRelease.get(row.releaseId)?.push(toAttachmentDto(row, downloadBase(htmlUrl, tags.get(row.releaseId) ?? '')));
    }
    return byRelease;
  }

  /** The blobs of a release's attachments, read in the transaction that deletes the release (its rows cascade). */
  blobsOf(repoId: number, releaseId: number, tx: Tx): Promise<string[]> {
    return this.attachments.blobsOf(repoId, releaseId, tx);
  }

  /** Deletes the blobs no row names any more (after their rows are gone). */
  releaseBlobs(sha256s: string[]): Promise<void> {
    return this.blobs.release(sha256s);
  }

  async list(req: ReleaseIdRequest): Promise<AttachmentDto[]> {
    const release = await this.visibleRelease(req, req.id);
    const rows = await this.attachments.ofReleases(req.repo.id, [release.id]);
    return rows.map((row) => this.toDto(req, release, row));
  }

  async get(req: ReleaseAssetRequest): Promise<AttachmentDto> {
    const release = await this.visibleRelease(req, req.id);
    return this.toDto(req, release, await this.found(req, release));
  }

  /** Gitea's `EditReleaseAttachment`: an empty name keeps the old one. */
  async edit(req: EditReleaseAssetRequest): Promise<AttachmentDto> {
    await this.tags.assertWritable(req);
    const release = await this.visibleRelease(req, req.id);
    let row = await this.found(req, release);
    const name = req.body.name;
    if (name) {
      if (!isValidAttachmentName(name)) throw DomainError.unprocessable(`invalid attachment name "${name}"`);
      row = await this.attachments.rename(row, name);
    }
    return this.toDto(req, release, row);
  }

  async delete(req: ReleaseAssetRequest): Promise<null> {
    await this.tags.assertWritable(req);
    const release = await this.visibleRelease(req, req.id);
    const row = await this.found(req, release);
    if (!(await this.attachments.remove(req.repo.id, row.id))) throw DomainError.notFound('attachment does not exist');
    if (row.sha256) await this.blobs.release([row.sha256]);
    return null;
  }

  /** Resolves a download (by tag and name, or uuid) the caller may see, and counts it (a `HEAD` is no download). */
  async download(req: AssetDownloadRequest): Promise<AssetDownloadReply> {
    let row: AttachmentRow | null = null;
    if (req.uuid) {
      row = await this.attachments.byUuid(req.uuid, req.repo.id);
      if (row) await this.visibleRelease(req, row.releaseId);
    } else if (req.tag !== undefined && req.name !== undefined) {
      const release = await this.releases.byTag(req.repo.id, req.tag);
      if (release && (!release.isDraft || seesDrafts(req))) row = await this.attachments.byName(req.repo.id, release.id, req.name);
    }
    if (!row) throw DomainError.notFound('attachment does not exist');
    if (!req.headOnly) await this.attachments.countDownload(row.id);
    return { uuid: row.uuid, name: row.name, size: row.size };
  }

  async locate(req: AssetLocateRequest): Promise<AssetLocateReply> {
    const row = await this.attachments.byUuid(req.uuid);
    if (!row) throw DomainError.notFound('attachment does not exist');
    const repo = await this.views.row(row.repoId);
    return { owner: repo.ownerName, repo: repo.name };
  }

  /** Staged (413 past `MAX_SIZE`), then committed in the transaction inserting the row; a failed insert keeps no blob. */
  async upload(upload: AttachmentUpload, body: Readable): Promise<AttachmentDto> {
    if (!isValidAttachmentName(upload.name)) throw DomainError.invalid(`invalid attachment name "${upload.name}"`);
    const repo = await this.views.row(upload.repoId);
    if (repo.isArchived) throw new DomainError(ErrorCode.LOCKED, 'repo is archived');
    const release = await this.releases.byId(upload.repoId, upload.releaseId);
    if (!release) throw DomainError.notFound(NOT_FOUND);
    let staged;
    try {
      staged = await this.blobs.stage(body, this.maxBytes);
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw new DomainError(ErrorCode.CONTENT_TOO_LARGE, `attachment too large: the limit is ${err.maxBytes} bytes`);
      throw err;
    }
    let row: AttachmentRow;
    try {
      row = await this.blobs.commitNamed(staged, (tx) => this.attachments.insert(tx, {
        uuid: randomUUID(), repoId: upload.repoId, releaseId: release.id, uploaderId: upload.uploaderId,
        name: upload.name, size: staged.size, sha256: staged.sha256,
      }));
    } catch (err) {
      // The release went away meanwhile (its rows cascade): commitNamed has dropped the unnamed blob.
      if ((err as { code?: string }).code === 'P2003') throw DomainError.notFound(NOT_FOUND);
      throw err;
    }
    return toAttachmentDto(row, downloadBase(repoUrls(this.common.rootUrl, repo).html, release.tagName));
  }

  private async visibleRelease(req: RepoScopedRequest, id: number): Promise<ReleaseRow> {
    const release = await this.releases.byId(req.repo.id, id);
    if (!release || (release.isDraft && !seesDrafts(req))) throw DomainError.notFound(NOT_FOUND);
    return release;
  }

  private async found(req: ReleaseAssetRequest, release: ReleaseRow): Promise<AttachmentRow> {
    const row = await this.attachments.byId(req.repo.id, release.id, req.attachmentId);
    if (!row) throw DomainError.notFound('attachment does not exist');
    return row;
  }

  private toDto(req: RepoScopedRequest, release: ReleaseRow, row: AttachmentRow): AttachmentDto {
    return toAttachmentDto(row, downloadBase(repoUrls(this.common.rootUrl, req.repo).html, release.tagName));
  }
}
