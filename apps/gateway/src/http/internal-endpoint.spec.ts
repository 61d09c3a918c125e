import { describe, expect, it } from 'vitest';
import { upstreamPath } from './internal-endpoint.js';

describe('upstreamPath', () => {
  it('keeps dot segments as they are, after the base path', () => {
    expect(upstreamPath(new URL('http://runners:3002/'), '/api/actions/../../internal/x?y=1')).toBe('/api/actions/../../internal/x?y=1');
    expect(upstreamPath(new URL('http://runners:3002/base/'), '/api/actions/%2e%2e/x')).toBe('/base/api/actions/%2e%2e/x');
  });
});
