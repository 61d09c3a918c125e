import { Logger } from '@nestjs/common';
import { CatFilePool } from '@cairn/git';
import { loadGitReadSettings } from './git-read-settings.js';

let shared: CatFilePool | null = null;

/** Process-wide, shared by Nest providers and plain functions (`streamRawBlob`): one `cat-file` per repository. */
export function sharedCatFilePool(): CatFilePool {
  if (!shared) {
    const s = loadGitReadSettings();
    const logger = new Logger('CatFilePool');
    shared = new CatFilePool({
      maxProcesses: s.catFileMaxProcesses,
      idleTimeoutMs: s.catFileIdleTimeoutMs,
      onRetry: (reason) => logger.warn(reason),
    });
  }
  return shared;
}

export function closeSharedCatFilePool(): void {
  shared?.close();
  shared = null;
}
