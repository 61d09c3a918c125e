import { Module } from '@nestjs/common';
import { GitReadModule } from '../../git-core/git/git-read.module.js';
import { SignaturesModule } from '../../git-core/signatures/signatures.module.js';
import { CommitUserDirectory, RpcCommitUserDirectory } from './commit-users.js';
import { CommitsHandler } from './commits.handler.js';
import { CommitsService } from './commits.service.js';

@Module({
  imports: [GitReadModule, SignaturesModule],
  controllers: [CommitsHandler],
  providers: [{ provide: CommitUserDirectory, useClass: RpcCommitUserDirectory }, CommitsService],
  exports: [CommitUserDirectory, CommitsService],
})
export class CommitsModule {}
