import { Global, Module } from '@nestjs/common';
import { BranchRenameFollowers } from './code/branches/branch-rename-followers.js';
import { BranchProtectionModule } from './code/branch-protection/branch-protection.module.js';
import { PushProtection } from './code/branch-protection/push-protection.service.js';
import { IssueTrackerModule } from './tracker/issue-tracker.module.js';
import { PullsRepository } from './tracker/pulls/pulls.repository.js';
import { PushRecorder } from './tracker/ref-updates/push-recorder.service.js';
import { AttachmentsService } from './code/releases/attachments.service.js';
import { ReleasesModule } from './code/releases/releases.module.js';
import { PUSH_SINK } from './git-core/transport/push-sink.js';
import { AttachmentUploads, PushPolicy } from './git-core/transport/transport-ports.js';

// Where a lower layer's port meets the higher layer implementing it, so no module imports a layer above its own.
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
