import { describe, expect, it } from 'vitest';
import { readCookie, sessionCookie } from './cookies.js';
import { csrfMatches } from './csrf.js';
import { createViews } from './views.js';
import { safeRedirectTarget } from './web-kit.js';

describe('web core helpers', () => {
  it('reads one cookie and writes the session cookie HttpOnly, SameSite=Lax, Secure only on https', () => {
    expect(readCookie('a=1; cairn_session=abc; b=2', 'cairn_session')).toBe('abc');
    expect(readCookie('xcairn_session=abc', 'cairn_session')).toBeUndefined();
    expect(readCookie(undefined, 'cairn_session')).toBeUndefined();
    expect(sessionCookie('s', 'v', { maxAgeSeconds: 60, secure: false })).toBe('s=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=60');
    expect(sessionCookie('s', 'v', { maxAgeSeconds: 60, secure: true })).toMatch(/; Secure$/);
  });

  it('matches the CSRF token exactly', () => {
    expect(csrfMatches('token-1', 'token-1')).toBe(true);
    expect(csrfMatches('token-1', 'token-2')).toBe(false);
    expect(csrfMatches('token-1', 'token-')).toBe(false);
    expect(csrfMatches('token-1', undefined)).toBe(false);
    expect(csrfMatches('token-1', ['token-1'])).toBe(false);
  });

  it('redirects after sign-in only to local paths', () => {
    expect(safeRedirectTarget('/alice/repo/src/branch/main?x=1')).toBe('/alice/repo/src/branch/main?x=1');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '', '/a b', undefined]) {
      expect(safeRedirectTarget(bad), String(bad)).toBeUndefined();
    }
  });

  it('escapes what templates print', () => {
    const html = createViews(false).render('core/error', { status: 404, title: '<b>x</b>', message: '"><script>' });
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<script>');
  });
});
