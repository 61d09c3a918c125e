import { Module } from '@nestjs/common';
import { BranchProtectionModule } from '../branch-protection/branch-protection.module.js';
import { GitReadModule } from '../../git-core/git/git-read.module.js';
import { ContentsModule } from '../contents/contents.module.js';
import { RepositoriesModule } from '../../git-core/repositories/repositories.module.js';
import { SignaturesModule } from '../../git-core/signatures/signatures.module.js';
import { GitDataHandler } from '../git-data/git-data.handler.js';
import { GitDataService } from '../git-data/git-data.service.js';
import { TAG_DELETE_GUARD } from '../git-data/tag-delete-guard.js';
import { TagsService } from '../git-data/tags.service.js';
import { AttachmentsHandler } from './attachments.handler.js';
import { AttachmentsRepository } from './attachments.repository.js';
import { AttachmentsService } from './attachments.service.js';
import { ReleaseTagGuard } from './release-tag-guard.js';
import { ReleasesHandler } from './releases.handler.js';
import { ReleasesRepository } from './releases.repository.js';
import { ReleasesService } from './releases.service.js';

/** Releases guard their tags via {@link TAG_DELETE_GUARD}; {@link AttachmentsService} serves `AttachmentUploads`. */
@Module({
  imports: [GitReadModule, ContentsModule, SignaturesModule, RepositoriesModule, BranchProtectionModule],
  controllers: [GitDataHandler, ReleasesHandler, AttachmentsHandler],
  providers: [
    TagsService,
    GitDataService,
    ReleasesRepository,
    ReleasesService,
    AttachmentsRepository,
    AttachmentsService,
    ReleaseTagGuard,
    { provide: TAG_DELETE_GUARD, useExisting: ReleaseTagGuard },
  ],
  exports: [AttachmentsService],
})
export class ReleasesModule {}
