import { Global, Module } from '@nestjs/common';
import { RepoStorage } from './repo-storage.js';

/** Repository storage on disk ({@link RepoStorage}), for every module of repo-service. */
@Global()
@Module({
  providers: [RepoStorage],
  exports: [RepoStorage],
})
export class StorageModule {}
