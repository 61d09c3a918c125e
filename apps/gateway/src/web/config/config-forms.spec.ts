import { describe, expect, it } from 'vitest';
import {
  branchProtectionFromForm, collaboratorMode, confirmTypedName, mergeOptionsFromForm, nameList, pushMode, repoOptionsFromForm,
} from './config-forms.js';
import { orgSettingsFromForm } from './org.pages.js';
import { installHint } from './packages.pages.js';

describe('configuration forms', () => {
  it('reads the repository options; unchecked boxes are false, an empty default branch is left alone', () => {
    expect(repoOptionsFromForm({ repo_name: ' demo ', description: 'd', website: ' https://x ', private: 'on' })).toEqual({
      name: 'demo', description: 'd', website: 'https://x', private: true, template: false,
    });
    expect(repoOptionsFromForm({ repo_name: 'demo', default_branch: 'trunk' }).default_branch).toBe('trunk');
  });

  it('reads the merge styles and refuses an unknown default style', () => {
    expect(mergeOptionsFromForm({ pulls_allow_merge: 'on', pulls_allow_squash: 'on', pulls_default_merge_style: 'squash' })).toEqual({
      default_delete_branch_after_merge: false, allow_merge_commits: true, allow_rebase: false, allow_rebase_explicit: false,
      allow_squash_merge: true, allow_fast_forward_only_merge: false, default_merge_style: 'squash',
    });
    expect(() => mergeOptionsFromForm({ pulls_default_merge_style: 'octopus' })).toThrow(/unknown merge style/);
  });

  it("maps Gitea's access modes", () => {
    expect(['1', '2', '3', 'write'].map(collaboratorMode)).toEqual(['read', 'write', 'admin', 'write']);
    expect(() => collaboratorMode('4')).toThrow(/read, write or admin/);
  });

  it('reads a branch protection rule: push modes, lists, approvals', () => {
    const rule = branchProtectionFromForm({
      rule_name: ' main ', enable_push: 'whitelist', whitelist_users: 'ann\nbob, cy', required_approvals: '2',
      enable_status_check: 'on', status_check_contexts: 'ci/*\n', block_on_rejected_reviews: 'on',
    });
    expect(rule).toMatchObject({
      rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['ann', 'bob', 'cy'],
      required_approvals: 2, enable_status_check: true, status_check_contexts: ['ci/*'], block_on_rejected_reviews: true,
      dismiss_stale_approvals: false,
    });
    expect(branchProtectionFromForm({ rule_name: 'x', whitelist_users: 'ann' })).toMatchObject({ enable_push: false, push_whitelist_usernames: [] });
    expect(() => branchProtectionFromForm({ enable_push: 'some' })).toThrow(/none, all or whitelist/);
    expect(() => branchProtectionFromForm({ required_approvals: '-1' })).toThrow(/number from 0/);
    expect(pushMode({ enable_push: true, enable_push_whitelist: false })).toBe('all');
    expect(nameList(' a ,\n\nb')).toEqual(['a', 'b']);
  });

  it('asks for the exact repository name before a destructive action', () => {
    expect(() => confirmTypedName('demo', 'demo')).not.toThrow();
    expect(() => confirmTypedName('Demo', 'demo')).toThrow(/does not match "demo"/);
    expect(() => confirmTypedName(undefined, 'demo')).toThrow();
  });

  it('reads the organization form and refuses an unknown visibility', () => {
    expect(orgSettingsFromForm({ full_name: ' Org ', visibility: 'limited' })).toMatchObject({ full_name: 'Org', visibility: 'limited' });
    expect(() => orgSettingsFromForm({ visibility: 'secret' })).toThrow(/public, limited or private/);
  });

  it('says how to install npm, container and generic packages', () => {
    expect(installHint('https://c.example/', 'Ann', 'npm', '@s/p', '1.0.0', [])).toBe('npm install --registry=https://c.example/api/packages/Ann/npm/ @s/p@1.0.0');
    expect(installHint('https://c.example', 'Ann', 'container', 'img', 'v1', [])).toBe('docker pull c.example/ann/img:v1');
    expect(installHint('https://c.example', 'Ann', 'generic', 'tool', '1', ['a.bin'])).toBe('curl -OJ https://c.example/api/packages/Ann/generic/tool/1/a.bin');
    expect(installHint('https://c.example', 'Ann', 'pypi', 'x', '1', [])).toBeNull();
  });
});
