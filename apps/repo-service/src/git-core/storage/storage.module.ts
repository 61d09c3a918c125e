import { Global, Module } from '@nestjs/common';
import { AttachmentStore } from './attachment-store.js';
import { RepoStorage } from './repo-storage.js';

@Global()
@Module({
  providers: [RepoStorage, AttachmentStore],
  exports: [RepoStorage, AttachmentStore],
})
export class StorageModule {}
