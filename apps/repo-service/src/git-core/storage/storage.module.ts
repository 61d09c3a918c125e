import { Global, Module } from '@nestjs/common';
import { AttachmentStore } from './attachment-store.js';
import { RepoStorage } from './repo-storage.js';

/** Repository storage on disk ({@link RepoStorage}, {@link AttachmentStore}), for every module of repo-service. */
@Global()
@Module({
  providers: [RepoStorage, AttachmentStore],
  exports: [RepoStorage, AttachmentStore],
})
export class StorageModule {}
