import { Global, Module } from '@nestjs/common';
import { COMMON_SETTINGS, attachmentsLocalRoot, openBlobStore, type CommonSettings } from '@cairn/platform';
import { REPO_SETTINGS, type RepoSettings } from '../../foundation/config/repo-settings.js';
import { ATTACHMENT_BLOB_STORE, ATTACHMENT_ROOT, AttachmentBlobs } from './attachment-blobs.js';
import { AttachmentBlobsRepository } from './attachment-blobs.repository.js';
import { RepoStorage } from './repo-storage.js';

@Global()
@Module({
  providers: [
    RepoStorage,
    {
      provide: ATTACHMENT_ROOT,
      inject: [COMMON_SETTINGS, REPO_SETTINGS],
      useFactory: (common: CommonSettings, repo: RepoSettings) => attachmentsLocalRoot({ attachmentPath: repo.attachmentPath, repoRoot: common.repoRoot }),
    },
    { provide: ATTACHMENT_BLOB_STORE, inject: [ATTACHMENT_ROOT], useFactory: (root: string) => openBlobStore('attachments', root) },
    AttachmentBlobsRepository,
    AttachmentBlobs,
  ],
  exports: [RepoStorage, AttachmentBlobs],
})
export class StorageModule {}
