import { describe, expect, it } from 'vitest';
import type { PullRequestDto } from '@cairn/contracts';
import { escapeHtml, renderMergeBox, renderPullPage } from './pull-page.js';

function pr(over: Partial<PullRequestDto>): PullRequestDto {
  return {
    number: 3, title: 'T', state: 'open', merged: false, mergeable_state: 'checking', conflicted_files: [],
    merge_commit_sha: null, head: { label: 'feature', ref: 'feature', sha: 'h', repo_id: 1, repo: null },
    base: { label: 'main', ref: 'main', sha: 'b', repo_id: 1, repo: null },
    ...over,
  } as PullRequestDto;
}

describe('pull request page', () => {
  it('reloads the merge box every 2 s while checking', () => {
    expect(renderMergeBox(pr({ mergeable_state: 'checking' }))).toContain('data-pull-merge-box-reloading-interval="2000"');
  });
  it('stops reloading once the check has a result, and lists conflicted files', () => {
    const html = renderMergeBox(pr({ mergeable_state: 'conflict', conflicted_files: ['a.txt', '<b>.txt'] }));
    expect(html).not.toContain('data-pull-merge-box-reloading-interval');
    expect(html).toContain('<code>a.txt</code>');
    expect(html).toContain('&#60;b&#62;.txt');
  });
  it('escapes user text in the page', () => {
    const html = renderPullPage(pr({ title: '<script>alert(1)</script>' }), 'o', 'r', 'n0nce');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('<script nonce="n0nce">');
    expect(escapeHtml(`"'&`)).toBe('&#34;&#39;&#38;');
  });
});
