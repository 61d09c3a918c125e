import { describe, expect, it } from 'vitest';
import type { PullRequestDto, RepositoryDto } from '@cairn/contracts';
import { createViews } from '../core/views.js';
import { headTarget, mergeBoxView, reviewLines, type MergeBoxModel } from './merge-box.view.js';

const views = createViews(false);

function pr(over: Partial<PullRequestDto>): PullRequestDto {
  return {
    number: 3, title: 'T', state: 'open', merged: false, mergeable_state: 'checking', conflicted_files: [],
    merge_commit_sha: null, merged_by: null, head: { label: 'feature', ref: 'feature', sha: 'abc123', repo_id: 1, repo: null },
    base: { label: 'main', ref: 'main', sha: 'b', repo_id: 1, repo: null }, merge_base: 'old',
    ...over,
  } as PullRequestDto;
}

function render(over: Partial<MergeBoxModel>): string {
  const model: MergeBoxModel = {
    pr: pr({}), pullPath: '/o/r/pulls/3', canWrite: true, mergeStyles: ['merge', 'squash'], updateStyles: ['merge'],
    defaults: { style: 'merge', deleteBranch: false },
    update: null, ...over,
  };
  // As the kit renders a fragment: the data plus the session's CSRF token.
  return views.render('pulls/merge-box', { box: mergeBoxView(model), csrf: 'tok' });
}

describe('merge box', () => {
  it('reloads every 2 s while checking and offers no merge yet', () => {
    const html = render({});
    expect(html).toContain('data-pull-merge-box-reloading-interval="2000"');
    expect(html).toContain('data-mergeable-state="checking"');
    expect(html).not.toContain('merge-form');
  });

  it('stops reloading once the check has a result, and lists conflicted files escaped', () => {
    const html = render({ pr: pr({ mergeable_state: 'conflict', conflicted_files: ['a.txt', '<b>.txt'] }) });
    expect(html).not.toContain('data-pull-merge-box-reloading-interval');
    expect(html).toContain('<code>a.txt</code>');
    expect(html).toContain('&lt;b&gt;.txt');
    expect(html).not.toContain('<b>.txt');
    expect(html).not.toContain('merge-form');
  });

  it('offers each allowed style as a plain form POST with the CSRF token and the head it was checked for', () => {
    const html = render({ pr: pr({ mergeable_state: 'mergeable' }) });
    expect(html).toContain('action="/o/r/pulls/3/merge"');
    expect(html).toContain('name="_csrf" value="tok"');
    expect(html).toContain('name="head_commit_id" value="abc123"');
    expect(html).toContain('value="merge" checked');
    expect(html).toContain('value="squash"');
    expect(html).not.toContain('value="rebase"');
    expect(html).toContain('action="/o/r/pulls/3/update"');
    expect(html).toContain('out-of-date with the base branch');
  });

  it("preselects the repository's default style and delete-branch choice", () => {
    const html = render({ pr: pr({ mergeable_state: 'mergeable' }), defaults: { style: 'squash', deleteBranch: true } });
    expect(html).toContain('value="squash" checked');
    expect(html).not.toContain('value="merge" checked');
    expect(html).toContain('name="delete_branch_after_merge" value="true" checked');
    expect(html).toContain('name="merge_title_field"');
    expect(html).toContain('name="merge_message_field"');
    // A default the repository no longer allows falls back to the first allowed style.
    expect(render({ pr: pr({ mergeable_state: 'mergeable' }), defaults: { style: 'rebase', deleteBranch: false } })).toContain('value="merge" checked');
  });

  it('offers update-branch only when the head is behind the base', () => {
    const upToDate = render({ pr: pr({ mergeable_state: 'mergeable', merge_base: 'b' }) });
    expect(upToDate).not.toContain('/update"');
    expect(upToDate).not.toContain('out-of-date');
  });

  it('offers no update-branch on a conflicting pull request, though it is behind', () => {
    const conflict = render({ pr: pr({ mergeable_state: 'conflict', conflicted_files: ['a.txt'] }) });
    expect(conflict).toContain('out-of-date');
    expect(conflict).not.toContain('/update"');
  });

  it('shows where the reviews stand: approvals against the required number, change requests', () => {
    const reviews = { approvals: 1, required_approvals: 2, change_requests: 1, block_on_rejected_reviews: true };
    const html = render({ pr: pr({ mergeable_state: 'mergeable' }), reviews });
    expect(html).toContain('1 of 2 required approvals: more approvals are needed to merge.');
    expect(html).toContain('1 reviewer requested changes: merging is blocked until they are resolved.');
    expect(reviewLines({ approvals: 2, required_approvals: 2, change_requests: 0, block_on_rejected_reviews: false }))
      .toEqual([{ tone: 'ok', text: '2 of 2 required approvals.' }]);
    expect(reviewLines({ approvals: 0, required_approvals: 0, change_requests: 0, block_on_rejected_reviews: false }))
      .toEqual([{ tone: 'info', text: 'No approvals yet.' }]);
    expect(render({ pr: pr({ merged: true }), reviews })).not.toContain('review-state');
  });

  it('offers no update-branch for a head in a fork, and names that head owner/repo:branch', () => {
    const fork = { label: 'feature', ref: 'feature', sha: 'abc123', repo_id: 2, repo: { full_name: 'bob/r' } as RepositoryDto };
    const behind = render({ pr: pr({ mergeable_state: 'mergeable', head: fork }) });
    expect(behind).toContain('out-of-date');
    expect(behind).not.toContain('/update"');
    expect(render({ pr: pr({ mergeable_state: 'mergeable' }) })).toContain('/update"');
    expect(headTarget(pr({ head: fork }))).toBe('bob/r:feature');
    expect(headTarget(pr({}))).toBe('feature');
  });

  it('shows no forms to readers, nor on merged or closed pull requests', () => {
    expect(render({ canWrite: false, pr: pr({ mergeable_state: 'mergeable' }) })).not.toContain('<form');
    const merged = render({ pr: pr({ merged: true, state: 'closed', merge_commit_sha: '0123456789abcdef', merged_by: { login: 'ann' } as PullRequestDto['merged_by'] }) });
    expect(merged).not.toContain('<form');
    expect(merged).toContain('Merged as <code>0123456789</code> by ann.');
    expect(render({ pr: pr({ state: 'closed', mergeable_state: 'mergeable' }) })).toContain('This pull request is closed.');
  });

  it('keeps reloading while an update runs, then shows its outcome', () => {
    const running = render({ pr: pr({ mergeable_state: 'mergeable' }), update: { state: 'running', style: 'merge', startedAt: '2026-01-01T00:00:00Z' } });
    expect(running).toContain('data-pull-merge-box-reloading-interval');
    expect(running).toContain('Updating the branch (merge)');
    expect(running).not.toContain('<form');
    const failed = render({
      pr: pr({ mergeable_state: 'mergeable' }),
      update: { state: 'done', style: 'rebase', startedAt: 'x', finishedAt: '2026-01-01T00:00:01Z', ok: false, message: 'conflict in <a>' },
    });
    expect(failed).not.toContain('data-pull-merge-box-reloading-interval');
    expect(failed).toContain('Updating the branch failed: conflict in &lt;a&gt;');
  });
});
