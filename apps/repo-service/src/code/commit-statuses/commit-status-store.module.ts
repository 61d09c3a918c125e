import { Module } from '@nestjs/common';
import { CommitStatusStore } from './commit-status-store.repository.js';

/** Needs only the global Prisma module, so merging and branch protection can import it without cycles. */
@Module({
  providers: [CommitStatusStore],
  exports: [CommitStatusStore],
})
export class CommitStatusStoreModule {}
