import { Module } from '@nestjs/common';
import { CommitsModule } from '../commits/commits.module.js';
import { GitReadModule } from '../../git-core/git/git-read.module.js';
import { ContentsHandler } from './contents.handler.js';
import { ContentsService } from './contents.service.js';

@Module({
  imports: [GitReadModule, CommitsModule],
  controllers: [ContentsHandler],
  providers: [ContentsService],
  exports: [ContentsService],
})
export class ContentsModule {}
