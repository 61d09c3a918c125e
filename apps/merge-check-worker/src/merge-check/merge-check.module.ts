import { Module } from '@nestjs/common';
import { WORKER_SETTINGS, loadWorkerSettings } from '../config/worker-settings.js';
import { GitChecker } from './git-checker.js';
import { MergeCheckProcessor } from './merge-check.processor.js';
import { MergeCheckQueue } from './merge-check.queue.js';
import { MergeCheckService } from './merge-check.service.js';
import { PushConsumer } from './push.consumer.js';
import { RepositoryPaths } from './repository-paths.js';

/** Pushes in (JetStream), checks queued and run (BullMQ), results out (repo-service over NATS). */
@Module({
  providers: [
    { provide: WORKER_SETTINGS, useFactory: () => loadWorkerSettings() },
    MergeCheckQueue,
    GitChecker,
    RepositoryPaths,
    MergeCheckService,
    MergeCheckProcessor,
    PushConsumer,
  ],
  exports: [MergeCheckService, MergeCheckQueue, GitChecker],
})
export class MergeCheckModule {}
