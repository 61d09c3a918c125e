import { describe, expect, it } from 'vitest';
import type { BranchProtectionRow } from './branch-protection.repository.js';
import { compileGlob, isGlobPattern } from './glob.js';
import { allUnprotected, canUserForcePush, canUserMerge, canUserPush, protectedPaths, ruleForBranch } from './protection-rules.js';
import { refusalOf, type BranchWrite } from './push-policy.js';
import { requiredChecksPass } from './required-checks.js';

function rule(over: Partial<BranchProtectionRow> = {}): BranchProtectionRow {
  return {
    id: 1, repoId: 1, ruleName: 'main', priority: 1, canPush: false, enableWhitelist: false, whitelistUserIds: [],
    whitelistTeams: [], whitelistDeployKeys: false, canForcePush: false, enableForcePushAllowlist: false,
    forcePushAllowlistUserIds: [], forcePushAllowlistTeams: [], forcePushAllowlistDeployKeys: false,
    enableMergeWhitelist: false, mergeWhitelistUserIds: [], mergeWhitelistTeams: [], enableStatusCheck: false,
    statusCheckContexts: [], enableApprovalsWhitelist: false, approvalsWhitelistUserIds: [], approvalsWhitelistTeams: [],
    requiredApprovals: 0, blockOnRejectedReviews: false, blockOnOfficialReviewRequests: false, blockOnOutdatedBranch: false,
    dismissStaleApprovals: false, ignoreStaleApprovals: false, requireSignedCommits: false, protectedFilePatterns: '',
    unprotectedFilePatterns: '', blockAdminMergeOverride: false, createdAt: new Date(), updatedAt: new Date(),
    ...over,
  };
}

const writer = { userId: 7, canWrite: true, teams: new Set<string>(['core']) };
const write = (over: Partial<BranchWrite> = {}): BranchWrite => ({
  branch: 'main', deletes: false, forces: false, changedPaths: [], unverifiedCommit: null, ...over,
});

describe('globs (Gitea modules/glob)', () => {
  it('matches * within a segment, ** across, ?, classes and alternatives', () => {
    const g = (p: string) => compileGlob(p, ['/']);
    expect(g('release/*').test('release/1.0')).toBe(true);
    expect(g('release/*').test('release/1.0/hotfix')).toBe(false);
    expect(g('release/**').test('release/1.0/hotfix')).toBe(true);
    expect(g('v?').test('v1')).toBe(true);
    expect(g('[!a]x').test('bx')).toBe(true);
    expect(g('[!a]x').test('ax')).toBe(false);
    expect(g('{main,dev}').test('dev')).toBe(true);
    expect(g('a.b').test('aXb')).toBe(false);
    expect(isGlobPattern('main')).toBe(false);
    expect(isGlobPattern('ma*n')).toBe(true);
  });
});

describe('which rule governs a branch', () => {
  it('prefers an exact (case-insensitive) name, then the first matching glob by priority', () => {
    const rules = [rule({ id: 1, ruleName: '*' }), rule({ id: 2, ruleName: 'Main' }), rule({ id: 3, ruleName: 'feat/*' })];
    expect(ruleForBranch(rules, 'main')?.id).toBe(2);
    // `*` stops at `/` (Gitea's glob with `/` as separator).
    expect(ruleForBranch(rules, 'feat/x')?.id).toBe(3);
    expect(ruleForBranch(rules, 'other')?.id).toBe(1);
    expect(ruleForBranch(rules.slice(1), 'feat/x/y')).toBeNull();
  });
});

describe('who may push, force-push and merge', () => {
  it('follows the allow-lists, falling back to write access', () => {
    expect(canUserPush(rule(), writer)).toBe(false);
    expect(canUserPush(rule({ canPush: true }), writer)).toBe(true);
    expect(canUserPush(rule({ canPush: true, enableWhitelist: true }), writer)).toBe(false);
    expect(canUserPush(rule({ canPush: true, enableWhitelist: true, whitelistTeams: ['Core'] }), writer)).toBe(true);
    expect(canUserForcePush(rule({ canPush: true, canForcePush: true }), writer)).toBe(true);
    expect(canUserForcePush(rule({ canPush: true, canForcePush: true, enableForcePushAllowlist: true }), writer)).toBe(false);
    expect(canUserMerge(rule(), writer)).toBe(true);
    expect(canUserMerge(rule({ enableMergeWhitelist: true, mergeWhitelistUserIds: [7] }), writer)).toBe(true);
    expect(canUserMerge(rule({ enableMergeWhitelist: true }), writer)).toBe(false);
  });

  it('admits a deploy key through the `…_deploy_keys` flags only, never through its owner\'s listing', () => {
    const key = { ...writer, teams: new Set<string>(), deployKey: true };
    const listed = { canPush: true, enableWhitelist: true, whitelistUserIds: [7] };
    expect(canUserPush(rule({ canPush: true }), key)).toBe(true);
    expect(canUserPush(rule(listed), key)).toBe(false);
    expect(canUserPush(rule({ ...listed, whitelistDeployKeys: true }), key)).toBe(true);
    expect(canUserPush(rule({ whitelistDeployKeys: true }), key)).toBe(false);
    const forceListed = { canPush: true, canForcePush: true, enableForcePushAllowlist: true, forcePushAllowlistUserIds: [7] };
    expect(canUserForcePush(rule({ canPush: true, canForcePush: true }), key)).toBe(true);
    expect(canUserForcePush(rule(forceListed), key)).toBe(false);
    expect(canUserForcePush(rule({ ...forceListed, forcePushAllowlistDeployKeys: true }), key)).toBe(true);
    expect(canUserForcePush(rule({ canForcePush: true, forcePushAllowlistDeployKeys: true }), key)).toBe(false);
  });

  it('refuses in Gitea\'s order, with its messages', () => {
    const open = rule({ canPush: true, protectedFilePatterns: 'secrets/*.txt; *.KEY', unprotectedFilePatterns: 'docs/**' });
    expect(refusalOf(open, write({ deletes: true }), writer)).toBe('branch main is protected from deletion');
    expect(refusalOf(open, write({ forces: true }), writer)).toBe('branch main is protected from force push');
    expect(refusalOf(rule({ canPush: true, requireSignedCommits: true }), write({ unverifiedCommit: 'abc' }), writer))
      .toBe('branch main is protected from unverified commit abc');
    expect(refusalOf(open, write({ changedPaths: ['a', 'deploy.key'] }), writer)).toBe('branch main is protected from changing file deploy.key');
    expect(refusalOf(open, write({ changedPaths: ['a'] }), writer)).toBeNull();
    const closed = rule({ unprotectedFilePatterns: 'docs/**' });
    expect(refusalOf(closed, write({ changedPaths: ['src/a.ts'] }), writer)).toBe('Not allowed to push to protected branch main');
    expect(refusalOf(closed, write({ changedPaths: ['docs/a/b.md'] }), writer)).toBeNull();
  });

  it('reads file patterns as Gitea does (lower-cased, ; separated, . and / separate)', () => {
    expect(protectedPaths(rule({ protectedFilePatterns: '*.md' }), ['README.MD', 'docs/x.md'])).toEqual(['README.MD']);
    expect(allUnprotected(rule({ unprotectedFilePatterns: '' }), ['a'])).toBe(false);
  });
});

describe('required status checks', () => {
  it('needs every required context matched and successful', () => {
    expect(requiredChecksPass(['ci/*'], [])).toBe(false);
    expect(requiredChecksPass(['ci/*'], [{ context: 'ci/build', state: 'success' }])).toBe(true);
    expect(requiredChecksPass(['ci/*'], [{ context: 'ci/build', state: 'success' }, { context: 'ci/lint', state: 'failure' }])).toBe(false);
    expect(requiredChecksPass([], [])).toBe(true);
    expect(requiredChecksPass([], [{ context: 'x', state: 'pending' }])).toBe(false);
  });
});
