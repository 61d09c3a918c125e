import type { IssueChanges, IssueState } from '@cairn/contracts';
import type { Tx } from '../../foundation/prisma/prisma.service.js';
import type { IssueRow, IssuesRepository } from './issues.repository.js';

/** The fields `PATCH …/issues/{index}` and `PATCH …/pulls/{index}` share. */
export interface TitleBodyStateEdit {
  title?: string;
  body?: string;
  state?: IssueState;
  /** The assignees the issue must have afterwards (resolved and checked by `Assignees`); unchanged when absent. */
  assigneeIds?: number[];
}

/** What differs between an issue and a pull request when one is edited: how it is read, its events, its state rules. */
export interface EditKind<Row extends IssueRow> {
  reload(tx: Tx, id: number): Promise<Row>;
  edited(tx: Tx, row: Row, changes: IssueChanges): Promise<void>;
  /** Runs before a state change; false keeps the state (a merged pull request). */
  beforeStateChange?(tx: Tx, row: Row, state: IssueState): Promise<boolean>;
  assigneeChanged(tx: Tx, row: Row, action: 'assigned' | 'unassigned', userId: number): Promise<void>;
  /** The event of a state change (after its timeline entry). */
  stateChanged(tx: Tx, row: Row, action: 'closed' | 'reopened'): Promise<void>;
}

/** On the row locked and read again, so each change gets exactly one event and timeline entry. */
export async function applyIssueEdit<Row extends IssueRow>(
  tx: Tx,
  issues: IssuesRepository,
  issueId: number,
  actorId: number,
  body: TitleBodyStateEdit,
  now: Date,
  kind: EditKind<Row>,
): Promise<Row> {
  await issues.lockRow(tx, issueId);
  let current = await kind.reload(tx, issueId);
  const changes: IssueChanges = {};
  const data: { title?: string; body?: string } = {};
  if (body.title !== undefined && body.title.trim() !== current.title) {
    changes.title = { from: current.title };
    data.title = body.title.trim();
  }
  if (body.body !== undefined && body.body !== current.body) {
    changes.body = { from: current.body };
    data.body = body.body;
  }
  if (Object.keys(data).length) {
    await issues.update(tx, issueId, { ...data, updatedAt: now });
    // Gitea's timeline records a title change (not a body edit) as `change_title` with both titles.
    if (data.title !== undefined) {
      await issues.addComment(tx, {
        issueId, repoId: current.repoId, type: 'change_title', posterId: actorId, body: '', now,
        oldTitle: current.title, newTitle: data.title,
      });
    }
    current = await kind.reload(tx, issueId);
    await kind.edited(tx, current, changes);
  }
  if (body.assigneeIds) {
    const { added, removed } = await issues.setAssignees(tx, issueId, body.assigneeIds);
    if (added.length || removed.length) {
      await issues.touch(tx, issueId, now);
      current = await kind.reload(tx, issueId);
      // One `assignees` timeline entry per user, as Gitea's `CommentTypeAssignees`.
      for (const id of removed) {
        await issues.addComment(tx, { issueId, repoId: current.repoId, type: 'assignees', posterId: actorId, body: '', now, assigneeId: id, removedAssignee: true });
        await kind.assigneeChanged(tx, current, 'unassigned', id);
      }
      for (const id of added) {
        await issues.addComment(tx, { issueId, repoId: current.repoId, type: 'assignees', posterId: actorId, body: '', now, assigneeId: id });
        await kind.assigneeChanged(tx, current, 'assigned', id);
      }
    }
  }
  const state = body.state;
  if (state === undefined || state === current.state) return current;
  if (kind.beforeStateChange && !(await kind.beforeStateChange(tx, current, state))) return current;
  if (!(await issues.setState(tx, current, state, now))) return current;
  await issues.addComment(tx, {
    issueId,
    repoId: current.repoId,
    type: state === 'closed' ? 'close' : 'reopen',
    posterId: actorId,
    body: '',
    now,
  });
  current = await kind.reload(tx, issueId);
  await kind.stateChanged(tx, current, state === 'closed' ? 'closed' : 'reopened');
  return current;
}
