import { EVENT_MAX_BYTES, type PushEventData, type RefUpdate } from '@cairn/contracts';
import { boundEventTexts, jsonBytes } from '@cairn/platform';

/** Room left for the event envelope (id, type, time) around the data. */
const ENVELOPE_BYTES = 512;

/** Updates spread over events under {@link EVENT_MAX_BYTES} (NATS's limit); one too large keeps its newest commits. */
export function pushEvents(push: PushEventData, maxBytes = EVENT_MAX_BYTES): PushEventData[] {
  const bounded = boundEventTexts(push);
  const budget = maxBytes - ENVELOPE_BYTES - jsonBytes({ ...bounded, updates: [] });
  const events: PushEventData[] = [];
  let current: RefUpdate[] = [];
  let used = 0;
  for (const raw of bounded.updates) {
    const update = fitUpdate(raw, budget);
    const size = jsonBytes(update) + 1;
    if (current.length && used + size > budget) {
      events.push({ ...bounded, updates: current });
      current = [];
      used = 0;
    }
    current.push(update);
    used += size;
  }
  if (current.length || !events.length) events.push({ ...bounded, updates: current });
  return events;
}

/** `update`, with fewer commits (oldest dropped first) and then no file lists, until it fits `budget`. */
function fitUpdate(update: RefUpdate, budget: number): RefUpdate {
  if (jsonBytes(update) < budget) return update;
  let commits = update.commits;
  while (commits.length > 1 && jsonBytes({ ...update, commits }) >= budget) commits = commits.slice(0, -1);
  if (jsonBytes({ ...update, commits }) >= budget) {
    commits = commits.map((c) => ({ ...c, added: [], removed: [], modified: [] }));
  }
  return { ...update, commits };
}
