// Webhook events as Gitea names them: a hook stores enabled keys (Gitea's `HookEvents`), `events` names expand to
// keys, and a delivered event type (`X-Gitea-Event-Type`) is enabled by its key and announced as its header event.

import { HOOK_EVENT_KEYS, type HookEventKey } from '@cairn/contracts';

// The keys live in contracts: the web hook form offers one checkbox per key.
export { HOOK_EVENT_KEYS, type HookEventKey };

const ISSUE_FAMILY: HookEventKey[] = ['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PULL_FAMILY: HookEventKey[] = [
  'pull_request', 'pull_request_assign', 'pull_request_label', 'pull_request_milestone', 'pull_request_comment',
  'pull_request_review', 'pull_request_review_request', 'pull_request_sync',
];

/** Names accepted in `events` (case-insensitive) and the keys each enables. `*` is every event. */
const EXPANSIONS: Record<string, readonly HookEventKey[]> = {
  ...Object.fromEntries(HOOK_EVENT_KEYS.map((k) => [k, [k]])),
  issues: ISSUE_FAMILY,
  issues_only: ['issues'],
  pull_request: PULL_FAMILY,
  pull_request_only: ['pull_request'],
  pull_request_review_approved: ['pull_request_review'],
  pull_request_review_rejected: ['pull_request_review'],
  pull_request_review_comment: ['pull_request_review'],
};

export const ACCEPTED_EVENT_NAMES: readonly string[] = ['*', ...Object.keys(EXPANSIONS)];

/** Event types that can be delivered: the key that enables each and the header event it is announced as. */
export const HOOK_EVENT_TYPES: Record<string, { key: HookEventKey; event: string }> = {
  create: { key: 'create', event: 'create' },
  delete: { key: 'delete', event: 'delete' },
  fork: { key: 'fork', event: 'fork' },
  push: { key: 'push', event: 'push' },
  issues: { key: 'issues', event: 'issues' },
  issue_assign: { key: 'issue_assign', event: 'issues' },
  issue_label: { key: 'issue_label', event: 'issues' },
  issue_milestone: { key: 'issue_milestone', event: 'issues' },
  issue_comment: { key: 'issue_comment', event: 'issue_comment' },
  pull_request: { key: 'pull_request', event: 'pull_request' },
  pull_request_assign: { key: 'pull_request_assign', event: 'pull_request' },
  pull_request_label: { key: 'pull_request_label', event: 'pull_request' },
  pull_request_milestone: { key: 'pull_request_milestone', event: 'pull_request' },
  pull_request_comment: { key: 'pull_request_comment', event: 'issue_comment' },
  pull_request_review_approved: { key: 'pull_request_review', event: 'pull_request_approved' },
  pull_request_review_rejected: { key: 'pull_request_review', event: 'pull_request_rejected' },
  pull_request_review_comment: { key: 'pull_request_review', event: 'pull_request_comment' },
  pull_request_sync: { key: 'pull_request_sync', event: 'pull_request' },
  pull_request_review_request: { key: 'pull_request_review_request', event: 'pull_request' },
  wiki: { key: 'wiki', event: 'wiki' },
  repository: { key: 'repository', event: 'repository' },
  release: { key: 'release', event: 'release' },
  package: { key: 'package', event: 'package' },
  status: { key: 'status', event: 'status' },
  workflow_job: { key: 'workflow_job', event: 'workflow_job' },
  workflow_run: { key: 'workflow_run', event: 'workflow_run' },
};

export interface HookEventSelection {
  events: HookEventKey[];
  sendEverything: boolean;
}

export class UnknownEventError extends Error {
  constructor(readonly names: string[]) {
    super(`Invalid event name(s): ${names.join(', ')}`);
  }
}

/** Expands `events` as Gitea does; empty or absent means `["push"]`. Throws {@link UnknownEventError}. */
export function parseEvents(names: readonly string[] | undefined): HookEventSelection {
  const list = (names ?? []).map((n) => n.trim().toLowerCase()).filter((n) => n !== '');
  if (list.length === 0) return { events: ['push'], sendEverything: false };
  const unknown = list.filter((n) => n !== '*' && !(n in EXPANSIONS));
  if (unknown.length) throw new UnknownEventError([...new Set(unknown)]);
  if (list.includes('*')) return { events: [...HOOK_EVENT_KEYS], sendEverything: true };
  const enabled = new Set<HookEventKey>();
  for (const n of list) for (const k of EXPANSIONS[n]) enabled.add(k);
  return { events: HOOK_EVENT_KEYS.filter((k) => enabled.has(k)), sendEverything: false };
}

export function hookWants(hook: { events: readonly string[]; sendEverything: boolean }, eventType: string): boolean {
  const t = HOOK_EVENT_TYPES[eventType];
  if (!t) return false;
  return hook.sendEverything || hook.events.includes(t.key);
}

export function headerEventOf(eventType: string): string {
  return HOOK_EVENT_TYPES[eventType]?.event ?? eventType;
}

/** The `events` list of the Hook JSON: every key for "send everything", else the enabled keys. */
export function eventsForDto(hook: { events: readonly string[]; sendEverything: boolean }): string[] {
  return hook.sendEverything ? [...HOOK_EVENT_KEYS] : HOOK_EVENT_KEYS.filter((k) => hook.events.includes(k));
}
