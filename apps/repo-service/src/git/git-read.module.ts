import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { BlameHandler } from '../blame/blame.handler.js';
import { BlameService } from '../blame/blame.service.js';
import { BranchesHandler } from '../branches/branches.handler.js';
import { BranchesService } from '../branches/branches.service.js';
import { BranchProtectionModule } from '../branch-protection/branch-protection.module.js';
import { CommitUserDirectory, RpcCommitUserDirectory } from '../commits/commit-users.js';
import { CommitsHandler } from '../commits/commits.handler.js';
import { CommitsService } from '../commits/commits.service.js';
import { CommitDiffHandler } from '../commit-diff/commit-diff.handler.js';
import { CommitDiffService } from '../commit-diff/commit-diff.service.js';
import { ContentsHandler } from '../contents/contents.handler.js';
import { ContentsService } from '../contents/contents.service.js';
import { RefNamesHandler } from '../ref-names/ref-names.handler.js';
import { RefNamesService } from '../ref-names/ref-names.service.js';
import { SignaturesModule } from '../signatures/signatures.module.js';
import { CatFilePool } from '@cairn/git';
import { GIT_READ_SETTINGS, loadGitReadSettings, type GitReadSettings } from './git-read-settings.js';
import { GitReadContext } from './git-read-context.js';
import { closeSharedCatFilePool, sharedCatFilePool } from './shared-pool.js';

/** Ends the pooled cat-file processes when the service stops. */
class CatFilePoolShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): void {
    closeSharedCatFilePool();
  }
}

/**
 * The git read APIs of repo-service: contents, raw, batch file contents, commits (since/until), branches, and the
 * web UI's commit diffs, ref names and blame.
 * Needs the platform (settings, RPC client), the repository storage on disk, and — for the trust of signed commits
 * (`SignaturesModule`) — repo-service's settings and Prisma modules.
 */
@Module({
  imports: [SignaturesModule, BranchProtectionModule],
  controllers: [ContentsHandler, CommitsHandler, BranchesHandler, CommitDiffHandler, RefNamesHandler, BlameHandler],
  providers: [
    { provide: GIT_READ_SETTINGS, useFactory: () => loadGitReadSettings() },
    { provide: CatFilePool, useFactory: () => sharedCatFilePool() },
    {
      provide: GitReadContext,
      inject: [CatFilePool, COMMON_SETTINGS, GIT_READ_SETTINGS],
      useFactory: (pool: CatFilePool, common: CommonSettings, s: GitReadSettings) =>
        new GitReadContext(pool, common.repoRoot, common.rootUrl, s.commitsRangeSize),
    },
    { provide: CommitUserDirectory, useClass: RpcCommitUserDirectory },
    { provide: CatFilePoolShutdown, useClass: CatFilePoolShutdown },
    ContentsService,
    CommitsService,
    BranchesService,
    CommitDiffService,
    BlameService,
    RefNamesService,
  ],
  exports: [GitReadContext, CatFilePool, ContentsService, CommitsService, BranchesService, SignaturesModule],
})
export class GitReadModule {
  constructor(@Inject(GIT_READ_SETTINGS) readonly settings: GitReadSettings) {}
}
