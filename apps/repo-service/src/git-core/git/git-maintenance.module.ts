import { Module } from '@nestjs/common';
import { CommitGraphMaintainer } from './commit-graph-maintainer.js';
import { loadGitReadSettings } from './git-read-settings.js';

/** Background housekeeping (commit-graphs, last-commit warm-up); one maintainer per process so transports coalesce. */
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
