import { Module } from '@nestjs/common';
import { WORKER_SETTINGS, loadWorkerSettings } from '../config/worker-settings.js';
import { GitChecker } from './git-checker.js';
import { MergeCheckProcessor } from './merge-check.processor.js';
import { MergeCheckService } from './merge-check.service.js';
import { RepositoryPaths } from './repository-paths.js';

/** Checks in (BullMQ jobs, queued by repo-service), run with `git merge-tree`, results out (repo-service over NATS). */
@Module({
  providers: [
    { provide: WORKER_SETTINGS, useFactory: () => loadWorkerSettings() },
    GitChecker,
    RepositoryPaths,
    MergeCheckService,
    MergeCheckProcessor,
  ],
  exports: [MergeCheckService, GitChecker],
})
export class MergeCheckModule {}
