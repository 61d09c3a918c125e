import { Module } from '@nestjs/common';
import { GitReadModule } from '../../git-core/git/git-read.module.js';
import { CommitDiffHandler } from './commit-diff.handler.js';
import { CommitDiffService } from './commit-diff.service.js';

@Module({ imports: [GitReadModule], controllers: [CommitDiffHandler], providers: [CommitDiffService] })
export class CommitDiffModule {}
