import { describe, expect, it } from 'vitest';
import type { ActorDto } from '@cairn/contracts';
import { viewerScope } from './viewer-scope.js';

const actor = (hasTwoFactor: boolean, isAdmin = false): ActorDto => ({
  id: 7, login: 'alice', isAdmin, scopes: ['all'], hasTwoFactor, via: 'token',
});

describe('viewer scope under the two-factor policy', () => {
  it('marks signed-in users without two-factor, admins included, when it is enforced', () => {
    expect(viewerScope(actor(false), new Map(), 'enforced').mustEnrolTwoFactor).toBe(true);
    expect(viewerScope(actor(false, true), new Map(), 'enforced').mustEnrolTwoFactor).toBe(true);
  });

  it('leaves enrolled users, anonymous callers and instances without enforcement alone', () => {
    expect(viewerScope(actor(true), new Map(), 'enforced').mustEnrolTwoFactor).toBe(false);
    expect(viewerScope(null, new Map(), 'enforced').mustEnrolTwoFactor).toBe(false);
    expect(viewerScope(actor(false), new Map(), '').mustEnrolTwoFactor).toBe(false);
  });
});
