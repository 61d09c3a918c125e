import { describe, expect, it } from 'vitest';
import { registryChallenge } from './oci-challenge.js';

describe('registryChallenge', () => {
  it('points at /v2/token on ROOT_URL’s origin, sub-path or not (as Gitea)', () => {
    expect(registryChallenge('http://127.0.0.1:3000/')).toBe('Bearer realm="http://127.0.0.1:3000/v2/token",service="container_registry",scope="*"');
    expect(registryChallenge('https://domain:8443/sub-path/')).toBe('Bearer realm="https://domain:8443/v2/token",service="container_registry",scope="*"');
  });
});
