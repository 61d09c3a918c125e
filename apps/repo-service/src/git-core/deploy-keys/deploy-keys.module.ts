import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { DeployKeysHandler } from './deploy-keys.handler.js';
import { DeployKeysRepository } from './deploy-keys.repository.js';
import { DeployKeysService } from './deploy-keys.service.js';

@Module({
  imports: [RepositoriesModule],
  controllers: [DeployKeysHandler],
  providers: [DeployKeysRepository, DeployKeysService],
  exports: [DeployKeysService],
})
export class DeployKeysModule {}
