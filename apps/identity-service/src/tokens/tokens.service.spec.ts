import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@cairn/contracts';
import { normaliseScopes } from './tokens.service.js';

describe('normaliseScopes', () => {
  it('accepts known scopes, splits comma lists and drops duplicates', () => {
    expect(normaliseScopes(['read:user', 'write:repository,read:user', ' all '])).toEqual([
      'read:user', 'write:repository', 'all',
    ]);
  });

  it('refuses an empty scope list as Gitea does', () => {
    expect(() => normaliseScopes([])).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT, message: 'access token must have a scope' }));
    expect(() => normaliseScopes(undefined)).toThrow('access token must have a scope');
  });

  it('names an unknown scope', () => {
    expect(() => normaliseScopes(['read:user', 'write:everything'])).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT, message: 'invalid access token scope: write:everything' }),
    );
  });
});
