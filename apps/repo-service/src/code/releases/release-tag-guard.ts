import { Injectable } from '@nestjs/common';
import { DomainError } from '@cairn/contracts';
import type { TagDeleteGuard } from '../git-data/tag-delete-guard.js';
import { ReleasesRepository } from './releases.repository.js';

/** Gitea: a tag attached to a release cannot be deleted directly (409); deleting the release keeps the tag. */
@Injectable()
export class ReleaseTagGuard implements TagDeleteGuard {
  constructor(private readonly releases: ReleasesRepository) {}

  async assertTagDeletable(repoId: number, tag: string): Promise<void> {
    if (await this.releases.byTag(repoId, tag)) throw DomainError.conflict('a tag attached to a release cannot be deleted directly');
  }
}
