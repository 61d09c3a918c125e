import { Module } from '@nestjs/common';
import { PlatformModule } from '@cairn/platform';
import { MergeCheckModule } from './merge-check/merge-check.module.js';

/** merge-check-worker: runs pull-request mergeability checks from a BullMQ queue (no durable data of its own). */
@Module({
  imports: [PlatformModule.forService({ service: 'merge-check' }), MergeCheckModule],
})
export class AppModule {}
