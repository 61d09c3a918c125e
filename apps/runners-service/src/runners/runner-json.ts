import { toApiTime } from '@cairn/contracts';
import type { ActionRunnerDto, ActionRunnerLabelDto, RunnerLabelsDto } from '@cairn/contracts';
import type { Runner } from '../generated/prisma/client.js';
import { runnerState, type LivenessWindows } from './runner-status.js';

/** Gitea's label list: the id is the position, every label `custom`. */
export function toLabels(labels: string[]): ActionRunnerLabelDto[] {
  return labels.map((name, id) => ({ id, name, type: 'custom' }));
}

export function toLabelList(labels: string[]): RunnerLabelsDto {
  return { total_count: labels.length, labels: toLabels(labels) };
}

/** Gitea's `ActionRunner` JSON (plus `last_online`); `status` and `busy` from {@link runnerState}. */
export function toRunnerJson(
  r: Pick<Runner, 'id' | 'name' | 'ephemeral' | 'labels' | 'lastOnline' | 'lastActive'>,
  windows: LivenessWindows,
  now = Date.now(),
): ActionRunnerDto {
  const state = runnerState(r, now, windows);
  return {
    id: r.id,
    name: r.name,
    status: state === 'offline' ? 'offline' : 'online',
    busy: state === 'active',
    ephemeral: r.ephemeral,
    labels: toLabels(r.labels),
    last_online: r.lastOnline ? toApiTime(r.lastOnline) : null,
  };
}
