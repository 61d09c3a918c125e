import { Module } from '@nestjs/common';
import { CommitGraphMaintainer } from './commit-graph-maintainer.js';
import { loadGitReadSettings } from './git-read-settings.js';

/**
 * Background repository housekeeping of repo-service (today: commit-graphs and last-commit warm-up after pushes). One maintainer per
 * process, so requests from the HTTP and SSH transports coalesce; awaited at shutdown.
 */
@Module({
  providers: [
    {
      provide: CommitGraphMaintainer,
      useFactory: () => new CommitGraphMaintainer({ warmMaxEntries: loadGitReadSettings().lastCommitWarmMaxEntries }),
    },
  ],
  exports: [CommitGraphMaintainer],
})
export class GitMaintenanceModule {}
