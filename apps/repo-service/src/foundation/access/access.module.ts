import { Module } from '@nestjs/common';
import { AccessHandler } from './access.handler.js';
import { AccessRepository } from './access.repository.js';
import { AccessService } from './access.service.js';
import { IdentityDirectory } from './identity-directory.js';

/** `repo.access.resolve` and access computation for the other modules of repo-service. */
@Module({
  controllers: [AccessHandler],
  providers: [AccessRepository, AccessService, IdentityDirectory],
  exports: [AccessService, IdentityDirectory],
})
export class AccessModule {}
