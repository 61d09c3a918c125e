import { describe, expect, it } from 'vitest';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { checkCreateHook, checkEditHook, parseIsSystemWebhook, validateHookUrl } from './hook-options.js';

function code(fn: () => unknown): ErrorCode | undefined {
  try {
    fn();
  } catch (err) {
    return (err as DomainError).code;
  }
  return undefined;
}

describe('is_system_webhook', () => {
  it('takes JSON booleans and Gitea string forms', () => {
    expect(parseIsSystemWebhook(true)).toBe(true);
    expect(parseIsSystemWebhook(false)).toBe(false);
    for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) expect(parseIsSystemWebhook(t)).toBe(true);
    for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False']) expect(parseIsSystemWebhook(f)).toBe(false);
  });
  it('absent, null or empty means a default hook', () => {
    expect(parseIsSystemWebhook(undefined)).toBe(false);
    expect(parseIsSystemWebhook(null)).toBe(false);
    expect(parseIsSystemWebhook('')).toBe(false);
  });
  it('refuses anything else with 422', () => {
    for (const bad of ['yes', 'tRUE', ' true', 2, {}, []]) {
      expect(code(() => parseIsSystemWebhook(bad))).toBe(ErrorCode.UNPROCESSABLE);
    }
  });
});

describe('hook options', () => {
  const ok = { type: 'gitea', config: { url: 'https://example.com/hook', content_type: 'json' } };

  it('accepts a valid gitea/json/https hook with Gitea defaults', () => {
    const f = checkCreateHook(ok, false);
    expect(f).toMatchObject({ type: 'gitea', contentType: 'json', events: ['push'], isActive: false, branchFilter: '' });
    expect(f.isSystemWebhook).toBe(false);
  });

  it('reads is_system_webhook at the admin level only', () => {
    const body = { ...ok, config: { ...ok.config, is_system_webhook: 'true' } };
    expect(checkCreateHook(body, true).isSystemWebhook).toBe(true);
    expect(checkCreateHook(body, false).isSystemWebhook).toBe(false);
  });

  it('answers 422 with Gitea messages', () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...ok, type: 'jenkins' }, /Invalid hook type: jenkins/],
      [{ ...ok, config: { content_type: 'json' } }, /Missing config option: url/],
      [{ ...ok, config: { url: 'https://e.com' } }, /Missing config option: content_type/],
      [{ ...ok, config: { ...ok.config, content_type: 'xml' } }, /Invalid content type/],
      [{ ...ok, config: { ...ok.config, url: 'example.com/webhook' } }, /Invalid url/],
      [{ ...ok, config: { ...ok.config, url: 'ftp://example.com/' } }, /Invalid url/],
      [{ ...ok, config: { ...ok.config, url: 'http://example.com:99999/' } }, /Invalid url/],
      [{ ...ok, branch_filter: '{main' }, /Invalid branch_filter/],
      [{ ...ok, events: ['push', 'bogus'] }, /bogus/],
      [{ ...ok, config: { ...ok.config, secret: 42 } }, /config.secret must be a string/],
    ];
    for (const [body, message] of cases) {
      let err: DomainError | undefined;
      try {
        checkCreateHook(body as never, true);
      } catch (e) {
        err = e as DomainError;
      }
      expect(err?.code, JSON.stringify(body)).toBe(ErrorCode.UNPROCESSABLE);
      expect(err?.message).toMatch(message);
    }
  });

  it('slack needs a channel (422 when missing, 400 when invalid)', () => {
    const slack = { type: 'slack', config: { url: 'https://hooks.slack.com/x', content_type: 'json' } };
    expect(code(() => checkCreateHook(slack, false))).toBe(ErrorCode.UNPROCESSABLE);
    expect(code(() => checkCreateHook({ ...slack, config: { ...slack.config, channel: '#' } }, false))).toBe(
      ErrorCode.INVALID_ARGUMENT,
    );
    expect(checkCreateHook({ ...slack, config: { ...slack.config, channel: ' #dev ' } }, false).meta).toEqual({
      channel: '#dev', username: '', icon_url: '', color: '',
    });
  });

  it('validates URLs as absolute http(s)', () => {
    expect(validateHookUrl('http://127.0.0.1:8080/x')).toBe('http://127.0.0.1:8080/x');
    expect(code(() => validateHookUrl('/relative'))).toBe(ErrorCode.UNPROCESSABLE);
  });

  it('an edit changes only what is sent', () => {
    expect(checkEditHook({}, 'gitea', {})).toEqual({});
    expect(checkEditHook({ active: true }, 'gitea', {})).toEqual({ isActive: true });
    expect(checkEditHook({ events: ['issues_only'] }, 'gitea', {})).toEqual({ events: ['issues'], sendEverything: false });
    expect(checkEditHook({ config: { secret: '' } }, 'gitea', {})).toEqual({ secret: null });
    expect(checkEditHook({ authorization_header: '' }, 'gitea', {})).toEqual({ authorizationHeader: null });
    expect(code(() => checkEditHook({ config: { url: 'nope' } }, 'gitea', {}))).toBe(ErrorCode.UNPROCESSABLE);
    expect(code(() => checkEditHook({ branch_filter: '[x' }, 'gitea', {}))).toBe(ErrorCode.UNPROCESSABLE);
  });
});
