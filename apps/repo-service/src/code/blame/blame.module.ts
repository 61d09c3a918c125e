import { Module } from '@nestjs/common';
import { GitReadModule } from '../../git-core/git/git-read.module.js';
import { BlameHandler } from './blame.handler.js';
import { BlameService } from './blame.service.js';

@Module({ imports: [GitReadModule], controllers: [BlameHandler], providers: [BlameService] })
export class BlameModule {}
