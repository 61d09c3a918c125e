import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { DeployKeysHandler } from './deploy-keys.handler.js';
import { DeployKeysRepository } from './deploy-keys.repository.js';
import { DeployKeysService } from './deploy-keys.service.js';

/** Deploy keys: the API (`/repos/{owner}/{repo}/keys`) and what the SSH server asks of them. */
@Module({
  imports: [RepositoriesModule],
  controllers: [DeployKeysHandler],
  providers: [DeployKeysRepository, DeployKeysService],
  exports: [DeployKeysService],
})
export class DeployKeysModule {}
