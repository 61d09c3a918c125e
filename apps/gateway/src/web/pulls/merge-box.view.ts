import type { MergeStyle, PullRequestDto, PullReviewSummaryDto, UpdateStyle } from '@cairn/contracts';
import { plural } from '../core/template-helpers.js';
import type { PullUpdateRecord } from './pull-update.tracker.js';

/** How often the merge box reloads itself while something is pending (Gitea's `data-pull-merge-box-reloading-interval`). */
export const MERGE_BOX_RELOAD_MS = 2000;

const STATE_TEXT: Record<string, string> = {
  checking: 'Checking for merge conflicts…',
  mergeable: 'This branch has no conflicts with the base branch.',
  conflict: 'This branch has conflicts that must be resolved.',
  error: 'The mergeability check failed.',
};

/** Which styles a repository allows is decided in `@cairn/contracts` (`allowedMergeStyles`); here only their labels. */
const MERGE_STYLE_LABELS: Record<MergeStyle, string> = {
  merge: 'Create merge commit',
  rebase: 'Rebase and fast-forward',
  'rebase-merge': 'Rebase and create merge commit',
  squash: 'Squash and merge',
  'fast-forward-only': 'Fast-forward only',
};

const UPDATE_LABELS: Record<UpdateStyle, string> = { merge: 'Update branch by merge', rebase: 'Update branch by rebase' };

/** Gitea offers "update branch" when the merge base is not the base's tip; known only once a check ran for the pair. */
export function isBehindBase(pr: PullRequestDto): boolean {
  return pr.mergeable_state !== 'checking' && !!pr.merge_base && pr.merge_base !== pr.base.sha;
}

/** A head in another repository (a fork): Cairn never writes to it, so there is no "update branch" for it. */
export function headInOtherRepository(pr: PullRequestDto): boolean {
  return pr.head.repo_id !== pr.base.repo_id;
}

/** The head as Gitea's pull request page names it: `owner/repo:branch` when it is in another repository. */
export function headTarget(pr: PullRequestDto): string {
  return headInOtherRepository(pr) && pr.head.repo ? `${pr.head.repo.full_name}:${pr.head.label}` : pr.head.label;
}

export interface MergeBoxModel {
  pr: PullRequestDto;
  pullPath: string;
  /** Forms are shown only to those repo-service would let merge and update (write access or site admin). */
  canWrite: boolean;
  /** In Gitea's order (`allowedMergeStyles`). */
  mergeStyles: MergeStyle[];
  /** The repository's preselected style and "delete branch" choice (its `default_merge_style` and friends). */
  defaults: { style: string; deleteBranch: boolean };
  updateStyles: UpdateStyle[];
  /** The signed-in user's branch update on this pull request: running, or its outcome not yet shown. */
  update: PullUpdateRecord | null;
  /** Where the reviews stand (repo-service's count, as the merge rules count them); null when not asked. */
  reviews?: PullReviewSummaryDto | null;
}

/** What `pulls/merge-box.eta` shows: every decision made here, the template only lays it out. */
export interface MergeBoxView {
  state: string;
  mergeableState: string;
  /** Set while a check or the viewer's update is pending: the page script reloads the box this often. */
  reloadMs: number | null;
  stateText: string;
  merged: { sha: string | null; by: string | null } | null;
  conflictedFiles: string[];
  behind: boolean;
  notice: { kind: 'running' | 'ok' | 'error'; style: string; at: string; message: string } | null;
  pullPath: string;
  headSha: string;
  mergeChoices: Array<{ style: MergeStyle; label: string; checked: boolean }> | null;
  deleteBranchChecked: boolean;
  updateChoices: Array<{ style: UpdateStyle; label: string }> | null;
  reviewLines: Array<{ tone: 'ok' | 'warn' | 'info'; text: string }>;
}

export function reviewLines(r: PullReviewSummaryDto | null | undefined): MergeBoxView['reviewLines'] {
  if (!r) return [];
  const lines: MergeBoxView['reviewLines'] = [];
  if (r.required_approvals > 0) {
    const enough = r.approvals >= r.required_approvals;
    lines.push({ tone: enough ? 'ok' : 'warn', text: `${r.approvals} of ${r.required_approvals} required approvals${enough ? '' : ': more approvals are needed to merge'}.` });
  } else {
    lines.push({ tone: r.approvals ? 'ok' : 'info', text: r.approvals ? `${plural(r.approvals, 'approval')}.` : 'No approvals yet.' });
  }
  if (r.change_requests) {
    const blocks = r.block_on_rejected_reviews ? ': merging is blocked until they are resolved' : '';
    lines.push({ tone: 'warn', text: `${plural(r.change_requests, 'reviewer')} requested changes${blocks}.` });
  }
  return lines;
}

function mergeChoices(m: MergeBoxModel): NonNullable<MergeBoxView['mergeChoices']> {
  const preselected = (m.mergeStyles as string[]).includes(m.defaults.style) ? m.defaults.style : m.mergeStyles[0];
  return m.mergeStyles.map((style) => ({ style, label: MERGE_STYLE_LABELS[style], checked: style === preselected }));
}

export function mergeBoxView(m: MergeBoxModel): MergeBoxView {
  const { pr } = m;
  const state = pr.merged ? 'merged' : pr.state === 'closed' ? 'closed' : pr.mergeable_state;
  const open = pr.state === 'open' && !pr.merged;
  const behind = open && isBehindBase(pr);
  const running = m.update?.state === 'running';
  const forms = open && m.canWrite && !running;
  const u = m.update;
  return {
    state,
    mergeableState: pr.mergeable_state,
    reloadMs: state === 'checking' || running ? MERGE_BOX_RELOAD_MS : null,
    stateText: pr.merged ? 'Merged' : pr.state === 'closed' ? 'This pull request is closed.' : (STATE_TEXT[pr.mergeable_state] ?? pr.mergeable_state),
    merged: pr.merged ? { sha: pr.merge_commit_sha ? pr.merge_commit_sha.slice(0, 10) : null, by: pr.merged_by?.login ?? null } : null,
    conflictedFiles: pr.conflicted_files,
    behind,
    notice: !u ? null : u.state === 'running'
      ? { kind: 'running', style: u.style, at: u.startedAt, message: '' }
      : { kind: u.ok ? 'ok' : 'error', style: u.style, at: u.finishedAt, message: u.message },
    pullPath: m.pullPath,
    headSha: pr.head.sha,
    mergeChoices: forms && state === 'mergeable' && m.mergeStyles.length ? mergeChoices(m) : null,
    deleteBranchChecked: m.defaults.deleteBranch,
    // A conflicting pull request is not offered an update: it would fail on the same conflict (Gitea hides it too).
    updateChoices: forms && behind && pr.mergeable_state !== 'conflict' && !headInOtherRepository(pr) ? m.updateStyles.map((style) => ({ style, label: UPDATE_LABELS[style] })) : null,
    reviewLines: pr.merged ? [] : reviewLines(m.reviews),
  };
}
