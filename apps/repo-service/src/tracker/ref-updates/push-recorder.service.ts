import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { isZeroId, placeholderUser } from '@cairn/contracts';
import { COMMON_SETTINGS, ClusterSchedule, type CommonSettings } from '@cairn/platform';
import { REPO_SETTINGS, type RepoSettings } from '../../foundation/config/repo-settings.js';
import { RefUpdates } from './ref-updates.service.js';
import { hostOf, toEventRepository, type RepoUrlSettings } from '../../git-core/repositories/repository.mapper.js';
import { RepoStorage } from '../../git-core/storage/repo-storage.js';
import type { RefUpdateLine } from '../../git-core/transport/push-log.js';
import { PushRecorderRepository } from './push-recorder.repository.js';
import type { PushContext } from '../../git-core/transport/push-sink.js';

/** Journal marks are kept this long: far longer than a journal folder can outlive its recording. */
const JOURNAL_MARK_DAYS = 7;

/** One transaction per push marks its journal (a replay records once) and hands the updates to {@link RefUpdates}. */
@Injectable()
export class PushRecorder implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('PushRecorder');
  private pruneSchedule?: ClusterSchedule;

  constructor(
    private readonly store: PushRecorderRepository,
    private readonly refUpdates: RefUpdates,
    private readonly storage: RepoStorage,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
    @Inject(REPO_SETTINGS) private readonly repoSettings: RepoSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.pruneSchedule = new ClusterSchedule({
      databaseUrl: this.common.databaseUrl,
      job: 'repo.journal-mark-prune',
      everyMs: 3_600_000,
      run: () => this.store.pruneJournalMarks(new Date(Date.now() - JOURNAL_MARK_DAYS * 86_400_000)),
    });
    this.pruneSchedule.start();
    void this.pruneSchedule.tick();
  }

  async onModuleDestroy(): Promise<void> {
    await this.pruneSchedule?.stop();
  }

  /** The push sink handed to the HTTP and SSH transports (and their journal replays). */
  readonly sink = (context: PushContext, updates: RefUpdateLine[]): Promise<void> => this.record(context, updates);

  async record(context: PushContext, lines: RefUpdateLine[]): Promise<void> {
    if (!lines.length) return;
    const current = await this.store.find(context.repoId);
    if (!current) {
      this.logger.warn(`push to repository ${context.repoId}, which no longer exists: no event`);
      return;
    }
    const prepared = await this.refUpdates.prepare({
      repoId: context.repoId,
      dir: context.dir,
      ownerId: current.ownerId,
      ownerName: current.ownerName,
      name: current.name,
      lines,
      pusherId: context.pusherId,
    });
    const urls = this.urls();
    const pushedBranches = lines
      .filter((l) => l.ref.startsWith('refs/heads/') && !isZeroId(l.new))
      .map((l) => l.ref.slice('refs/heads/'.length));

    const done = await this.store.inTransaction(context.repoId, context.journalId, pushedBranches, async (tx, change) => {
      const repo = change.repository;
      const owner = prepared.people.users.get(repo.ownerId) ?? placeholderUser(repo.ownerId, repo.ownerName, urls.rootUrl);
      return this.refUpdates.recordRefUpdates(tx, prepared, toEventRepository(repo, owner, urls));
    });
    if (!done) {
      this.logger.warn(`push to repository ${context.repoId}, which was deleted meanwhile: no event`);
      return;
    }
    if (done === 'recorded-before') {
      this.logger.log(`push ${context.journalId} to repository ${context.repoId} was recorded before: nothing to do`);
      return;
    }
    const { initialBranch, repository } = done.change;
    if (initialBranch) {
      await this.storage.setHead(repository, initialBranch).catch((err: Error) => {
        this.logger.error(`pointing HEAD of repository ${repository.id} at ${initialBranch} failed: ${err.message}`);
      });
    }
    await this.refUpdates.afterCommit(done.result);
  }

  private urls(): RepoUrlSettings {
    return {
      rootUrl: this.common.rootUrl,
      sshUser: this.repoSettings.sshUser,
      sshHost: this.repoSettings.sshDomain || hostOf(this.common.rootUrl),
      sshPort: this.common.sshPort,
    };
  }
}
