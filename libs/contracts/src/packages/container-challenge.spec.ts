import { describe, expect, it } from 'vitest';
import { containerRegistryChallenge } from './packages-http.js';

describe('containerRegistryChallenge', () => {
  it('points at /v2/token on ROOT_URL’s origin, sub-path or not (as Gitea)', () => {
    expect(containerRegistryChallenge('http://127.0.0.1:3000/')).toBe(
      'Bearer realm="http://127.0.0.1:3000/v2/token",service="container_registry",scope="*"',
    );
    expect(containerRegistryChallenge('https://domain:8443/sub-path/')).toBe(
      'Bearer realm="https://domain:8443/v2/token",service="container_registry",scope="*"',
    );
  });
});
