import { availableParallelism } from 'node:os';
import { loadSettings, mergeCheckTimeoutSetting, parsers, type SettingsOf } from '@cairn/platform';

/** merge-check-worker's settings: Gitea's `[repository.pull-request]` plus its own `[merge-check]`. */
export const workerSettingsSpec = {
  checkTimeoutMs: mergeCheckTimeoutSetting,
  /** `[merge-check] CONCURRENCY`: checks one worker process runs at once (default: the number of CPUs). */
  concurrency: {
    section: 'merge-check',
    key: 'CONCURRENCY',
    default: Math.max(1, availableParallelism()),
    parse: parsers.int(1, 256),
  },
  /** `[merge-check] STALLED_INTERVAL`: how often workers requeue jobs whose worker died (its lock expired). */
  stalledIntervalMs: {
    section: 'merge-check',
    key: 'STALLED_INTERVAL',
    default: 30_000,
    parse: (raw: string) => {
      const ms = parsers.durationMs(raw);
      if (ms < 1_000) throw new Error('expected a duration of at least 1s');
      return ms;
    },
  },
  /** `[merge-check] LOCK_DURATION`: a running job's lock; renewed while the worker lives, expires when it dies. */
  lockDurationMs: {
    section: 'merge-check',
    key: 'LOCK_DURATION',
    default: 30_000,
    parse: (raw: string) => {
      const ms = parsers.durationMs(raw);
      if (ms < 1_000) throw new Error('expected a duration of at least 1s');
      return ms;
    },
  },
};

export type WorkerSettings = SettingsOf<typeof workerSettingsSpec>;
export const WORKER_SETTINGS = Symbol('WORKER_SETTINGS');

export function loadWorkerSettings(env: NodeJS.ProcessEnv = process.env): WorkerSettings {
  return loadSettings(workerSettingsSpec, env);
}
