import type { ActionRunnerDto, ActionRunnerLabelDto, RunnerLabelsDto } from '@cairn/contracts';
import { toApiTime } from '../actions/api-time.js';
import type { Runner } from '../generated/prisma/client.js';

/** The liveness windows of `[actions]` (runners-settings.ts). */
export interface RunnerLiveness {
  runnerOfflineTimeMs: number;
  runnerIdleTimeMs: number;
}

/** Gitea's label list: the id is the position, every label `custom`. */
export function toLabels(labels: string[]): ActionRunnerLabelDto[] {
  return labels.map((name, id) => ({ id, name, type: 'custom' }));
}

export function toLabelList(labels: string[]): RunnerLabelsDto {
  return { total_count: labels.length, labels: toLabels(labels) };
}

/**
 * Gitea's `ActionRunner` JSON (plus `last_online`): online while `last_online` is within the offline time; busy while
 * online and `last_active` (work reported on a task) is within the idle time — Gitea's "active" status.
 */
export function toRunnerJson(
  r: Pick<Runner, 'id' | 'name' | 'ephemeral' | 'labels' | 'lastOnline' | 'lastActive'>,
  live: RunnerLiveness,
  now = Date.now(),
): ActionRunnerDto {
  const online = r.lastOnline !== null && now - r.lastOnline.getTime() < live.runnerOfflineTimeMs;
  const busy = online && r.lastActive !== null && now - r.lastActive.getTime() < live.runnerIdleTimeMs;
  return {
    id: r.id,
    name: r.name,
    status: online ? 'online' : 'offline',
    busy,
    ephemeral: r.ephemeral,
    labels: toLabels(r.labels),
    last_online: r.lastOnline ? toApiTime(r.lastOnline) : null,
  };
}
