import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
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

/** The shared cat-file pool and {@link GitReadContext}; the read APIs are feature modules of the layers above. */
@Module({
  providers: [
    { provide: GIT_READ_SETTINGS, useFactory: () => loadGitReadSettings() },
    { provide: CatFilePool, useFactory: () => sharedCatFilePool() },
    {
      provide: GitReadContext,
      inject: [CatFilePool, COMMON_SETTINGS, GIT_READ_SETTINGS],
      useFactory: (pool: CatFilePool, common: CommonSettings, s: GitReadSettings) =>
        new GitReadContext(pool, common.repoRoot, common.rootUrl, s.commitsRangeSize),
    },
    { provide: CatFilePoolShutdown, useClass: CatFilePoolShutdown },
  ],
  exports: [GitReadContext, CatFilePool],
})
export class GitReadModule {
  constructor(@Inject(GIT_READ_SETTINGS) readonly settings: GitReadSettings) {}
}
