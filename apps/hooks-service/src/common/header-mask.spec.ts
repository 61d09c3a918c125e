import { describe, expect, it } from 'vitest';
import { isMaskOf, maskCredential, maskHeaders, maskUrlCredentials } from './header-mask.js';

describe('header masking', () => {
  it('keeps the scheme and hides the credential', () => {
    expect(maskCredential('Bearer s3cr3t')).toBe('Bearer ********');
    expect(maskCredential('token abc def')).toBe('token ********');
    expect(maskCredential('s3cr3t')).toBe('********');
    expect(maskCredential('')).toBe('********');
  });

  it('masks credential headers whatever their case and leaves the rest', () => {
    const masked = maskHeaders({
      Authorization: 'Basic dXNlcjpwYXNz',
      'proxy-authorization': 'Bearer x',
      Cookie: 'session=1',
      'X-Gitea-Signature': 'abc',
      'Content-Type': 'application/json',
    });
    expect(masked).toEqual({
      Authorization: 'Basic ********',
      'proxy-authorization': 'Bearer ********',
      Cookie: '********',
      'X-Gitea-Signature': 'abc',
      'Content-Type': 'application/json',
    });
    expect(JSON.stringify(masked)).not.toContain('dXNlcjpwYXNz');
  });

  it('masks the credentials of a URL (the password, or a lone user name: often a token)', () => {
    expect(maskUrlCredentials('https://user:pa55@example.com/hook?x=1')).toBe('https://user:********@example.com/hook?x=1');
    expect(maskUrlCredentials('https://tok3n@example.com/hook')).toBe('https://********@example.com/hook');
    expect(maskUrlCredentials('http://example.com:8080/hook')).toBe('http://example.com:8080/hook');
    expect(maskUrlCredentials('not a url')).toBe('not a url');
  });

  it('recognises a masked value sent back unchanged', () => {
    expect(isMaskOf('Bearer ********', 'Bearer abc', maskCredential)).toBe(true);
    expect(isMaskOf('Bearer new', 'Bearer abc', maskCredential)).toBe(false);
    expect(isMaskOf('********', '', maskCredential)).toBe(false);
  });
});
