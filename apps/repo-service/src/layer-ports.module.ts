import { Global, Module } from '@nestjs/common';
import { BranchRenameFollowers } from './branches/branch-rename-followers.js';
import { BranchProtectionModule } from './branch-protection/branch-protection.module.js';
import { PushProtection } from './branch-protection/push-protection.service.js';
import { IssueTrackerModule } from './issue-tracker.module.js';
import { PullsRepository } from './pulls/pulls.repository.js';
import { PushRecorder } from './ref-updates/push-recorder.service.js';
import { AttachmentsService } from './releases/attachments.service.js';
import { ReleasesModule } from './releases/releases.module.js';
import { PUSH_SINK } from './transport/push-sink.js';
import { AttachmentUploads, PushPolicy } from './transport/transport-ports.js';

/**
 * The one place where a lower layer's port meets the higher layer that implements it: each token is declared low
 * (git-core, code) and provided here from above, so no module imports a layer above its own. Global, so the low
 * modules inject the tokens without importing this module.
 */
@Global()
@Module({
  imports: [BranchProtectionModule, ReleasesModule, IssueTrackerModule],
  providers: [
    // git-core/transport: branch protection in the pre-receive hook; attachment uploads; the push recorder.
    { provide: PushPolicy, useExisting: PushProtection },
    { provide: AttachmentUploads, useExisting: AttachmentsService },
    { provide: PUSH_SINK, useFactory: (recorder: PushRecorder) => recorder.sink, inject: [PushRecorder] },
    // code/branches: open pull requests follow a renamed branch.
    { provide: BranchRenameFollowers, useExisting: PullsRepository },
  ],
  exports: [PushPolicy, AttachmentUploads, PUSH_SINK, BranchRenameFollowers],
})
export class LayerPortsModule {}
