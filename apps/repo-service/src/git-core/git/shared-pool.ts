import { Logger } from '@nestjs/common';
import { CatFilePool } from '@cairn/git';
import { loadGitReadSettings } from './git-read-settings.js';

let shared: CatFilePool | null = null;

/**
 * The process-wide cat-file pool: the Nest providers and plain functions such as `streamRawBlob` (mounted on the
 * internal HTTP server) share it, so each repository has at most one `cat-file` process in repo-service.
 */
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

/** Ends every pooled process (service shutdown). */
export function closeSharedCatFilePool(): void {
  shared?.close();
  shared = null;
}
