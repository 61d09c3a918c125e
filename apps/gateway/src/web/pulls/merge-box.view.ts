import type { MergeDoStyle, PullRequestDto, RepositoryDto, UpdateStyle } from '@cairn/contracts';
import { csrfField, escapeHtml, timeTag } from './html.js';
import type { PullUpdateRecord } from './pull-update.tracker.js';

/** How often the merge box reloads itself while something is pending (Gitea's `data-pull-merge-box-reloading-interval`). */
export const MERGE_BOX_RELOAD_MS = 2000;

const STATE_TEXT: Record<string, string> = {
  checking: 'Checking for merge conflicts…',
  mergeable: 'This branch has no conflicts with the base branch.',
  conflict: 'This branch has conflicts that must be resolved.',
  error: 'The mergeability check failed.',
};

/** The merge styles a repository allows, in Gitea's order, with their button labels. */
const MERGE_STYLE_LABELS: ReadonlyArray<[MergeDoStyle, string, keyof RepositoryDto]> = [
  ['merge', 'Create merge commit', 'allow_merge_commits'],
  ['rebase', 'Rebase and fast-forward', 'allow_rebase'],
  ['rebase-merge', 'Rebase and create merge commit', 'allow_rebase_explicit'],
  ['squash', 'Squash and merge', 'allow_squash_merge'],
  ['fast-forward-only', 'Fast-forward only', 'allow_fast_forward_only_merge'],
];

/** The merge styles `repo` allows. */
export function allowedMergeStyles(repo: RepositoryDto): MergeDoStyle[] {
  return MERGE_STYLE_LABELS.filter(([, , flag]) => repo[flag] === true).map(([style]) => style);
}

/** The update styles `repo` allows (merge always; rebase when enabled). */
export function allowedUpdateStyles(repo: RepositoryDto): UpdateStyle[] {
  return repo.allow_rebase_update ? ['merge', 'rebase'] : ['merge'];
}

export interface MergeBoxModel {
  pr: PullRequestDto;
  /** `/{owner}/{repo}/pulls/{index}` */
  pullPath: string;
  /** Forms are shown only to a signed-in user with write access (the API's rule for merge and update). */
  canWrite: boolean;
  csrfToken: string;
  mergeStyles: MergeDoStyle[];
  updateStyles: UpdateStyle[];
  /** The signed-in user's branch update on this pull request: running, or its outcome not yet shown. */
  update: PullUpdateRecord | null;
}

function updateNotice(update: PullUpdateRecord | null): string {
  if (!update) return '';
  if (update.state === 'running') {
    return `<p class="notice" role="status" id="update-status">Updating the branch (${escapeHtml(update.style)}), started ${timeTag(update.startedAt)}…</p>`;
  }
  return update.ok
    ? `<p class="notice notice-ok" role="status" id="update-status">The branch was updated (${escapeHtml(update.style)}) at ${timeTag(update.finishedAt)}.</p>`
    : `<p class="notice notice-error" role="alert" id="update-status">Updating the branch failed: ${escapeHtml(update.message)}</p>`;
}

function mergeForm(m: MergeBoxModel): string {
  if (m.mergeStyles.length === 0) return '<p>No merge style is enabled for this repository.</p>';
  const options = MERGE_STYLE_LABELS.filter(([style]) => m.mergeStyles.includes(style))
    .map(([style, label], i) =>
      `<label class="choice"><input type="radio" name="Do" value="${style}"${i === 0 ? ' checked' : ''}> ${escapeHtml(label)}</label>`)
    .join('');
  return `<form method="post" action="${escapeHtml(m.pullPath)}/merge" class="merge-form">${csrfField(m.csrfToken)}` +
    `<input type="hidden" name="head_commit_id" value="${escapeHtml(m.pr.head.sha)}">` +
    `<fieldset><legend>Merge style</legend>${options}</fieldset>` +
    `<label class="check"><input type="checkbox" name="delete_branch_after_merge" value="true"> Delete the head branch after merging</label>` +
    `<button type="submit" class="button primary">Merge pull request</button></form>`;
}

function updateForm(m: MergeBoxModel): string {
  const buttons = m.updateStyles
    .map((style) => `<button type="submit" name="style" value="${style}" class="button">${style === 'merge' ? 'Update branch by merge' : 'Update branch by rebase'}</button>`)
    .join(' ');
  return `<form method="post" action="${escapeHtml(m.pullPath)}/update" class="update-form">${csrfField(m.csrfToken)}${buttons}</form>`;
}

/**
 * The head lacks base commits when their merge base is not the base's tip (Gitea offers "update branch" then). Only
 * known once a check has run for the current pair: while checking, the stored merge base may be stale.
 */
export function isBehindBase(pr: PullRequestDto): boolean {
  return pr.mergeable_state !== 'checking' && !!pr.merge_base && pr.merge_base !== pr.base.sha;
}

/**
 * The merge box (`GET /{owner}/{repo}/pulls/{index}/merge_box` and part of the pull page): mergeability, conflicted
 * files, the merge and update-branch forms for writers, and the reload interval while a check or an update is pending.
 */
export function renderMergeBox(m: MergeBoxModel): string {
  const { pr } = m;
  const state = pr.merged ? 'merged' : pr.state === 'closed' ? 'closed' : pr.mergeable_state;
  const pending = state === 'checking' || m.update?.state === 'running';
  const reloading = pending ? ` data-pull-merge-box-reloading-interval="${MERGE_BOX_RELOAD_MS}"` : '';
  const text = pr.merged
    ? `Merged${pr.merge_commit_sha ? ` as <code>${escapeHtml(pr.merge_commit_sha.slice(0, 10))}</code>` : ''}${pr.merged_by ? ` by ${escapeHtml(pr.merged_by.login)}` : ''}.`
    : pr.state === 'closed'
      ? 'This pull request is closed.'
      : escapeHtml(STATE_TEXT[pr.mergeable_state] ?? pr.mergeable_state);
  const files = pr.conflicted_files.length
    ? `<ul class="conflicted-files">${pr.conflicted_files.map((f) => `<li><code>${escapeHtml(f)}</code></li>`).join('')}</ul>`
    : '';
  const open = pr.state === 'open' && !pr.merged;
  const behind = open && isBehindBase(pr);
  const behindText = behind ? '<p id="behind-base">This branch is out-of-date with the base branch.</p>' : '';
  const forms = open && m.canWrite && m.update?.state !== 'running'
    ? (state === 'mergeable' ? mergeForm(m) : '') + (behind ? updateForm(m) : '')
    : '';
  return (
    `<section id="merge-box" aria-label="Merge status" class="merge-box state-${escapeHtml(state)}" data-mergeable-state="${escapeHtml(pr.mergeable_state)}"${reloading}>` +
    `<p><strong class="merge-state">${escapeHtml(state)}</strong> — ${text}</p>${files}${behindText}${updateNotice(m.update)}${forms}</section>`
  );
}
