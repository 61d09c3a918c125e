import { describe, expect, it } from 'vitest';
import { maskCredential, maskHeaders } from './header-mask.js';

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
});
