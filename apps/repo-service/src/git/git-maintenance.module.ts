import { Module } from '@nestjs/common';
import { CommitGraphMaintainer } from './commit-graph-maintainer.js';

/**
 * Background repository housekeeping of repo-service (today: commit-graphs after pushes). One maintainer per
 * process, so requests from the HTTP and SSH transports coalesce; awaited at shutdown.
 */
@Module({
  providers: [{ provide: CommitGraphMaintainer, useFactory: () => new CommitGraphMaintainer() }],
  exports: [CommitGraphMaintainer],
})
export class GitMaintenanceModule {}
