import { describe, expect, it } from 'vitest';
import { createViews } from '../core/views.js';
import { MERGE_STYLE_FIELDS } from './config-forms.js';

const views = createViews(false);
const layout = { csrf: 'CSRF-TOKEN', actor: { login: 'ann' } };
const header = {
  owner: 'ann', name: 'r<x>', fullName: 'ann/r<x>', description: '', isPrivate: false, empty: false, defaultBranch: 'main',
  base: '/ann/r%3Cx%3E', cloneHttp: '', cloneSsh: '', archived: false, openIssues: 0, openPulls: 0, canAdmin: true,
};
const repoFrame = { head: '../config/_repo-head', nav: '../config/_repo-nav', data: { header } };
const org = { username: 'acme', full_name: 'Acme <Inc>', description: '', website: '', location: '', visibility: 'public' };
const orgFrame = { head: '../config/_org-head', nav: '../config/_org-nav', data: { org } };
const user = { id: 7, login: 'bob<b>' };

/** No inline script or style, and a CSRF field in every form. */
function expectSafeForms(html: string): void {
  expect(html).not.toMatch(/<script|style=/);
  const forms = html.match(/<form method="post"/g)?.length ?? 0;
  expect(html.match(/name="_csrf" value="CSRF-TOKEN"/g)?.length ?? 0).toBe(forms);
}

describe('configure templates', () => {
  it('render the repository settings pages with the settings nav, escaping names, a CSRF field in every form', () => {
    const pages = {
      options: views.render('config/repo-options', {
        ...repoFrame.data, frame: repoFrame, section: 'options', layout, mergeStyles: MERGE_STYLE_FIELDS, failedAction: 'delete', error: 'bad <name>',
        repository: { name: 'r<x>', description: '', website: '', default_branch: 'main', private: false, template: false, archived: true, allow_squash_merge: true, default_merge_style: 'squash' },
      }),
      collaboration: views.render('config/repo-collaboration', {
        ...repoFrame.data, frame: repoFrame, section: 'collaboration', layout, collaborators: [{ user, permission: 'admin' }],
        teams: { withAccess: [{ id: 3, name: 'Owners', permission: 'owner', includes_all_repositories: true }], others: [{ id: 4, name: 'devs' }] },
      }),
      branches: views.render('config/repo-branches', {
        ...repoFrame.data, frame: repoFrame, section: 'branches', layout,
        rules: [{ rule_name: 'release/*', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: ['ann'], required_approvals: 1, enable_status_check: false, status_check_contexts: [] }],
      }),
      rule: views.render('config/repo-branch-rule', {
        ...repoFrame.data, frame: repoFrame, section: 'branches', layout, existing: true, values: { rule_name: 'main', enable_push: 'none', dismiss_stale_approvals: true },
      }),
      keys: views.render('config/repo-keys', {
        ...repoFrame.data, frame: repoFrame, section: 'keys', layout, keys: [{ id: 1, title: 'k<1>', fingerprint: 'SHA256:x', read_only: true, created_at: '2026-01-01T00:00:00Z' }],
      }),
    };
    for (const html of Object.values(pages)) expectSafeForms(html);
    expect(pages.options).toContain('Unarchive repository');
    expect(pages.options).toContain('<p class="field-error">bad &lt;name&gt;</p>');
    expect(pages.options).toContain('<a href="/ann/r%3Cx%3E/settings" aria-current="page">Options</a>');
    expect(pages.collaboration).toContain('bob&lt;b&gt;');
    expect(pages.collaboration).toContain('<option value="3" selected>admin</option>');
    expect(pages.collaboration).not.toContain('aria-label="Remove team Owners"'); // every repository: not removable here
    expect(pages.branches).toContain('href="/ann/r%3Cx%3E/settings/branches/edit?rule_name=release%2F*"');
    expect(pages.rule).toContain('name="original_rule_name" value="main"');
    expect(pages.rule).toContain('<input type="checkbox" name="dismiss_stale_approvals" checked>');
    expect(pages.keys).toContain('k&lt;1&gt;');
  });

  it('render the Actions, organization, account and package pages; a secret value is never rendered', () => {
    const actions = { ...orgFrame.data, frame: orgFrame, layout, actionsBase: '/org/acme/settings/actions' };
    const pages = [
      views.render('config/actions-runners', { ...actions, section: 'runners', runners: [], total: 0, registrationToken: 'RT<1>' }),
      views.render('config/actions-variables', { ...actions, section: 'variables', variables: [{ name: 'A', data: '<v>', description: '' }] }),
      views.render('config/actions-secrets', { ...actions, section: 'secrets', secrets: [{ name: 'S', description: '', created_at: '2026-01-01T00:00:00Z' }], typed: { name: 'S', description: '' } }),
      views.render('config/org-settings', { ...orgFrame.data, frame: orgFrame, section: 'options', layout, values: org }),
      views.render('config/org-members', { ...orgFrame.data, frame: orgFrame, section: 'members', layout, members: [{ user, public: false }] }),
      views.render('config/org-teams', { ...orgFrame.data, frame: orgFrame, section: 'teams', layout, teams: [], units: ['repo.code'], permissions: ['read'] }),
      views.render('config/org-team', { ...orgFrame.data, frame: orgFrame, section: 'teams', layout, team: { name: 'devs', permission: 'write', includes_all_repositories: false, units: [] }, members: [user] }),
      views.render('config/user-account', { tab: 'account', layout, emails: [{ email: 'a@x', primary: true, verified: true }, { email: 'b@x', primary: false, verified: true }] }),
      views.render('config/packages', { owner: 'ann', type: '', q: '', packages: [], pager: { current: 1, previous: null, next: null }, extra: '', types: ['npm'], layout }),
    ];
    for (const html of pages) expectSafeForms(html);
    expect(pages[0]).toContain('value="RT&lt;1&gt;"');
    expect(pages[1]).toContain('&lt;v&gt;');
    expect(pages[2]).toContain('<textarea id="secret-data" name="data" rows="3" required autocomplete="off"></textarea>');
    expect(pages[3]).toContain('Acme &lt;Inc&gt;');
    expect(pages[7]).toContain('aria-label="Make b@x primary"');
    expect(pages[7]).not.toContain('aria-label="Delete a@x"'); // the primary address cannot be deleted
  });
});
