import { HOOK_EVENT_KEYS, type HookDto } from '@cairn/contracts';
import { describe, expect, it } from 'vitest';
import { createViews } from '../core/views.js';
import {
  HOOK_EVENT_CHECKBOXES, adminHookKind, createHookBody, editHookBody, hookEventsFromForm, hookFormValues, typedHookValues,
} from './hook-form.js';
import { failureOf } from './hook-pages.js';

const hook: HookDto = {
  id: 5, type: 'gitea', config: { url: 'http://x/<y>', content_type: 'form' }, events: ['push', 'issues'], branch_filter: 'main',
  authorization_header: '', active: true, is_system_webhook: false, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
};

describe('hook form', () => {
  it('builds a Gitea hook body with Gitea field names: extra config (admin kind), active checkbox, secret only when given', () => {
    const body = createHookBody({
      payload_url: ' http://127.0.0.1:9/h ', content_type: 'form', events: 'push_only', branch_filter: 'main', active: 'on', secret: '',
    }, { is_system_webhook: true });
    expect(body).toEqual({
      type: 'gitea',
      config: { url: 'http://127.0.0.1:9/h', content_type: 'form', is_system_webhook: true },
      events: ['push'],
      branch_filter: 'main',
      active: true,
    });
    const withSecrets = createHookBody({ payload_url: 'http://x', events: 'send_everything', secret: 's3', authorization_header: 'Bearer t' });
    expect(withSecrets).toMatchObject({ active: false, events: ['*'], authorization_header: 'Bearer t' });
    expect(withSecrets.config).toMatchObject({ secret: 's3', content_type: 'json' });
    expect(() => adminHookKind('repo')).toThrow(/system or default/);
  });

  it('reads custom events: Issues and Pull request checkboxes mean those events alone; none checked is refused', () => {
    expect(hookEventsFromForm({ events: 'choose_events', issues: 'on', pull_request: 'on', release: 'on', push: '' }))
      .toEqual(['issues_only', 'pull_request_only', 'release']);
    expect(() => hookEventsFromForm({ events: 'choose_events' })).toThrow(/at least one event/);
    expect(hookEventsFromForm({ events: 'anything' })).toEqual(['push']);
  });

  it('shows a stored hook in the edit form (never a secret); an empty secret keeps the stored one', () => {
    expect(hookFormValues(hook)).toMatchObject({
      payload_url: 'http://x/<y>', content_type: 'form', events: 'choose_events', checked: ['push', 'issues'], hasSecret: true,
    });
    expect(hookFormValues({ ...hook, events: [...HOOK_EVENT_KEYS] }).events).toBe('send_everything');
    expect(hookFormValues({ ...hook, events: ['push'] }).events).toBe('push_only');
    expect(editHookBody({ payload_url: 'http://x', events: 'push_only', secret: '' }).config).toEqual({ url: 'http://x', content_type: 'json' });
    expect(typedHookValues({ payload_url: 'u', events: 'choose_events', release: 'on', secret: 'never' })).not.toHaveProperty('secret');
  });

  it('puts the reason of a failed delivery first: the error without a response, else the status', () => {
    const attempt = { number: 1, redelivery: false, delivered_at: '', duration: 0, status: '', status_code: 0, outcome: 'failed' as const,
      error: 'connect ECONNREFUSED 127.0.0.1:9', request: { headers: {}, payload: null }, response: { headers: {}, payload: null } };
    expect(failureOf({ state: 'failed', status: 'x', status_code: 0, attempt_log: [attempt] })).toBe('connect ECONNREFUSED 127.0.0.1:9');
    expect(failureOf({ state: 'failed', status: 'Internal Server Error', status_code: 500, attempt_log: [{ ...attempt, error: null }] }))
      .toBe('the target answered 500 Internal Server Error');
    expect(failureOf({ state: 'delivered', status: 'OK', status_code: 200, attempt_log: [] })).toBeNull();
  });
});

describe('hook templates', () => {
  const views = createViews(false);
  const layout = { csrf: 'CSRF-TOKEN', actor: { login: 'root' } };
  const frame = { head: '../admin/_head', nav: '../hooks/_no-nav', data: {} };
  const delivery = {
    id: 9, guid: 'g-1', redelivery: false, event_type: 'push', state: 'failed', status: 'boom', status_code: 0, attempts: 3,
    delivered_at: '2026-01-01T00:00:00Z',
  };
  const safe = (html: string) => {
    expect(html).not.toMatch(/<script|style=/);
    const forms = html.match(/<form method="post"/g)?.length ?? 0;
    expect(html.match(/name="_csrf" value="CSRF-TOKEN"/g)?.length ?? 0).toBe(forms);
  };

  it('render the form, the hook with its deliveries, and a failed delivery with its reason before the request', () => {
    const base = '/o/r/settings/hooks';
    const edit = views.render('hooks/hook', {
      frame, base, canTest: true, scopeLevel: 'repo', hook, values: hookFormValues(hook), checkboxes: HOOK_EVENT_CHECKBOXES,
      deliveries: [delivery], pager: { current: 1, previous: null, next: null }, layout,
    });
    safe(edit);
    expect(edit).toContain('value="http://x/&lt;y&gt;"');
    expect(edit).toContain(`action="${base}/5/test"`);
    expect(edit).toContain('<input type="checkbox" name="issues" checked>');
    const page = views.render('hooks/delivery', {
      frame, base, hookId: 5, layout, failure: 'connect <refused>', requestText: 'X-Gitea-Event: push\n\n{}', responseText: '',
      delivery: { ...delivery, url: 'http://x', attempt_log: [] },
    });
    safe(page);
    expect(page.indexOf('connect &lt;refused&gt;')).toBeLessThan(page.indexOf('X-Gitea-Event: push'));
  });
});
