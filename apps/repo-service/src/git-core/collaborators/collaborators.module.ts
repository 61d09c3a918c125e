import { Module } from '@nestjs/common';
import { AccessModule } from '../../foundation/access/access.module.js';
import { CollaboratorsHandler } from './collaborators.handler.js';
import { CollaboratorsRepository } from './collaborators.repository.js';
import { CollaboratorsService } from './collaborators.service.js';

@Module({
  imports: [AccessModule],
  controllers: [CollaboratorsHandler],
  providers: [CollaboratorsRepository, CollaboratorsService],
  exports: [CollaboratorsRepository],
})
export class CollaboratorsModule {}
