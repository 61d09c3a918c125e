import { describe, expect, it } from 'vitest';
import { createViews } from '../core/views.js';

const views = createViews(false);
const layout = { csrf: 'CSRF-TOKEN', actor: { login: 'root' } };
const hook = {
  id: 5, type: 'gitea', config: { url: 'http://x/<y>', content_type: 'json' }, events: ['repository'], branch_filter: '',
  active: true, is_system_webhook: true,
};

describe('admin templates', () => {
  it('render the hook lists, runners and users with escaped values and a CSRF field in every form', () => {
    const pages = [
      views.render('admin/hooks', { tab: 'hooks', systemHooks: [hook], defaultHooks: [], layout }),
      views.render('admin/runners', { tab: 'runners', runners: [], total: 0, registrationToken: 'RT', reset: false, layout }),
      views.render('admin/users', { tab: 'users', users: [], total: 0, q: 'a&b', pager: { current: 2, previous: 1, next: null }, layout }),
    ];
    for (const html of pages) {
      expect(html).not.toMatch(/<script|style=/);
      const forms = html.match(/<form method="post"/g)?.length ?? 0;
      expect(html.match(/name="_csrf" value="CSRF-TOKEN"/g)?.length ?? 0).toBe(forms);
    }
    expect(pages[0]).toContain('http://x/&lt;y&gt;');
    expect(pages[2]).toContain('href="?page=1&amp;q=a%26b"');
  });
});
