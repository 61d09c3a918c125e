import { describe, expect, it } from 'vitest';
import { anonymousMustSignIn, isExpensivePath } from './sign-in-policy.js';

describe('REQUIRE_SIGNIN_VIEW for anonymous web visitors', () => {
  it('sends them to sign in from code, history, issues and pulls under expensive, not from the repository home', () => {
    for (const path of ['/o/r/src/branch/main', '/o/r/raw/branch/main/a.txt', '/o/r/commits/branch/main', '/o/r/commit/abc',
      '/o/r/blame/branch/main/x', '/o/r/archive/main.zip', '/o/r/graph', '/o/r/issues', '/o/r/pulls/3', '/o/r/wiki/Home',
      '/o/r/activity', '/user/events']) {
      expect(isExpensivePath(path), path).toBe(true);
      expect(anonymousMustSignIn('expensive', path, false), path).toBe(true);
    }
    for (const path of ['/', '/o/r', '/o', '/explore/repos', '/user/login', '/o/r/settings', '/explore/repos/src']) {
      expect(anonymousMustSignIn('expensive', path, false), path).toBe(false);
    }
  });

  it('lets them see the images a README on the open home page shows (raw/media of an image file), not other raw files', () => {
    for (const path of ['/o/r/raw/branch/main/docs/logo.png', '/o/r/media/branch/main/a.SVG', '/o/r/raw/branch/main/%6cogo.png']) {
      expect(anonymousMustSignIn('expensive', path, false), path).toBe(false);
    }
    for (const path of ['/o/r/raw/branch/main/logo.png.txt', '/o/r/src/branch/main/logo.png', '/o/r/blame/branch/main/logo.png']) {
      expect(anonymousMustSignIn('expensive', path, false), path).toBe(true);
    }
    expect(anonymousMustSignIn('strict', '/o/r/raw/branch/main/logo.png', false)).toBe(true);
  });

  it('classifies the decoded path: percent-encoded segments are the pages they are routed to', () => {
    for (const path of ['/o/r/%72aw/branch/main/a.txt', '/o/r/%73rc/branch/main', '/o/r/%63ommits/branch/main',
      '/o/r/%69ssues', '/o/r/%70ulls/3', '/%75ser/events']) {
      expect(anonymousMustSignIn('expensive', path, false), path).toBe(true);
    }
    expect(anonymousMustSignIn('expensive', '/o/r/%zz', false)).toBe(false);
  });

  it('sends them to sign in from every page but the sign-in pages under true, and from none under false', () => {
    expect(anonymousMustSignIn('strict', '/', false)).toBe(true);
    expect(anonymousMustSignIn('strict', '/o/r', false)).toBe(true);
    expect(anonymousMustSignIn('strict', '/user/login', true)).toBe(false);
    expect(anonymousMustSignIn('off', '/o/r/src/branch/main', false)).toBe(false);
  });
});
