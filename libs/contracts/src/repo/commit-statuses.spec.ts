import { describe, expect, it } from 'vitest';
import { combineCommitStatusStates } from './commit-statuses.dto.js';

describe('combineCommitStatusStates (Gitea CommitStatusStates.Combine)', () => {
  it('is pending without statuses', () => {
    expect(combineCommitStatusStates([])).toBe('pending');
  });

  it('is failure as soon as one context is error or failure, whatever else is pending', () => {
    expect(combineCommitStatusStates(['success', 'error'])).toBe('failure');
    expect(combineCommitStatusStates(['pending', 'failure', 'success'])).toBe('failure');
  });

  it('is pending while one context is pending and none failed', () => {
    expect(combineCommitStatusStates(['success', 'pending', 'warning'])).toBe('pending');
  });

  it('counts warning and skipped as success', () => {
    expect(combineCommitStatusStates(['success', 'warning', 'skipped'])).toBe('success');
    expect(combineCommitStatusStates(['skipped'])).toBe('success');
  });
});
