import { EVENT_MAX_BYTES, type PushEventData, type PushedCommit, type RefUpdate } from '@cairn/contracts';
import { jsonBytes, newEvent, outboxRow } from '@cairn/platform';
import { describe, expect, it } from 'vitest';
import { pushEvents } from './push-event.js';

const sha = (n: number) => n.toString(16).padStart(40, '0');

function commit(n: number, files = 20): PushedCommit {
  const who = { name: 'Alice', email: 'alice@example.com', username: 'alice' };
  return {
    id: sha(n), message: `commit ${n}\n\n${'words '.repeat(50)}`, url: `http://x/c/${sha(n)}`, author: who, committer: who,
    timestamp: '2026-11-24T00:00:00Z', added: Array.from({ length: files }, (_, i) => `src/dir/file-${n}-${i}.ts`), removed: [], modified: [],
  };
}

function update(i: number, commits = 20): RefUpdate {
  return {
    ref: `refs/heads/branch-${i}`, old: '0'.repeat(40), new: sha(i + 1),
    commits: Array.from({ length: commits }, (_, c) => commit(i * 100 + c)), totalCommits: commits + 5,
  };
}

function push(updates: RefUpdate[]): PushEventData {
  return {
    repository: {
      id: 1, ownerId: 2, ownerName: 'alice', ownerKind: 'user', name: 'r', fullName: 'alice/r', private: false,
      defaultBranch: 'main', json: { id: 1, description: 'd'.repeat(2000) },
    },
    pusher: null,
    updates,
  };
}

describe('pushEvents', () => {
  it('keeps a small push in one event, unchanged', () => {
    const p = push([update(1), update(2)]);
    expect(pushEvents(p)).toEqual([p]);
  });

  it('spreads a push of 300 branches with 20 commits each over events that all fit, every update once and in order', () => {
    const p = push(Array.from({ length: 300 }, (_, i) => update(i)));
    expect(jsonBytes(p)).toBeGreaterThan(EVENT_MAX_BYTES);
    const events = pushEvents(p);
    expect(events.length).toBeGreaterThan(1);
    for (const e of events) {
      expect(() => outboxRow(newEvent('repo.evt.push.received', e))).not.toThrow();
      expect(e.repository).toEqual(p.repository);
    }
    expect(events.flatMap((e) => e.updates)).toEqual(p.updates);
  });

  it('keeps the newest commits (and the total) of one update too large on its own, then drops file lists', () => {
    const huge = update(1, 20);
    huge.commits = huge.commits.map((c) => ({ ...c, added: Array.from({ length: 3_000 }, (_, i) => `${'p'.repeat(40)}/${c.id}-${i}`) }));
    const [only, ...rest] = pushEvents(push([huge]));
    expect(rest).toEqual([]);
    const fitted = only.updates[0];
    expect(fitted.commits.length).toBeGreaterThan(0);
    expect(fitted.commits.length).toBeLessThan(20);
    expect(fitted.commits.map((c) => c.id)).toEqual(huge.commits.slice(0, fitted.commits.length).map((c) => c.id));
    expect(fitted.totalCommits).toBe(huge.totalCommits);
    expect(() => outboxRow(newEvent('repo.evt.push.received', only))).not.toThrow();

    const monster = update(2, 1);
    monster.commits[0].modified = Array.from({ length: 20_000 }, (_, i) => `${'q'.repeat(60)}/${i}`);
    const [one] = pushEvents(push([monster]));
    expect(one.updates[0].commits[0]).toMatchObject({ id: monster.commits[0].id, added: [], removed: [], modified: [] });
  });
});
