import { Module } from '@nestjs/common';
import { CommitStatusStore } from './commit-status-store.repository.js';

/**
 * Commit statuses as stored: {@link CommitStatusStore} (with the SEAM `combinedStatus(repoId, sha)`). Needs only
 * repo-service's global Prisma module, so any module (merging, branch protection) can import it without cycles.
 */
@Module({
  providers: [CommitStatusStore],
  exports: [CommitStatusStore],
})
export class CommitStatusStoreModule {}
