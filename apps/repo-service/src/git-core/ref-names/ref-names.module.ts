import { Module } from '@nestjs/common';
import { GitReadModule } from '../git/git-read.module.js';
import { RefNamesHandler } from './ref-names.handler.js';
import { RefNamesService } from './ref-names.service.js';

@Module({ imports: [GitReadModule], controllers: [RefNamesHandler], providers: [RefNamesService] })
export class RefNamesModule {}
