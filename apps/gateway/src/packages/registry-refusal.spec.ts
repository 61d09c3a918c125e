import { describe, expect, it } from 'vitest';
import { registryOf, registryRefusal } from './registry-refusal.js';

const ROOT = 'https://git.example.com/';

describe('registryRefusal', () => {
  it('answers the container registry with OCI errors and its token-flow challenge', () => {
    const r = registryRefusal('/v2/alice/img/manifests/latest', 401, 'invalid credentials', ROOT);
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Bearer realm="https://git.example.com/v2/token",service="container_registry",scope="*"');
    expect(JSON.parse(r.body)).toEqual({ errors: [{ code: 'UNAUTHORIZED', message: 'invalid credentials' }] });
  });

  it('answers npm with { error } and the others in plain text, both with a Basic challenge', () => {
    const npm = registryRefusal('/api/packages/alice/npm/left-pad', 401, 'nope', ROOT);
    expect(JSON.parse(npm.body)).toEqual({ error: 'nope' });
    expect(npm.headers['www-authenticate']).toBe('Basic realm="Gitea Package API"');
    const generic = registryRefusal('/api/packages/alice/generic/x/1/f', 401, 'nope', ROOT);
    expect(generic.body).toBe('nope\n');
    expect(generic.headers['content-type']).toMatch(/^text\/plain/);
    expect(registryRefusal('/api/packages/alice/generic/x/1/f', 503, 'down', ROOT).headers['www-authenticate']).toBeUndefined();
  });

  it('tells the registries apart by path', () => {
    expect(registryOf('/v2')).toBe('container');
    expect(registryOf('/v2/')).toBe('container');
    expect(registryOf('/v20')).toBe('other');
    expect(registryOf('/api/packages/o/npm')).toBe('npm');
    expect(registryOf('/api/packages/o/npmx/a')).toBe('other');
  });
});
