import { loadSettings } from '@cairn/platform';
import { describe, expect, it } from 'vitest';
import { repoSettingsSpec } from './repo-settings.js';

const load = (env: Record<string, string>) => loadSettings(repoSettingsSpec, env);

describe('repo-service settings checked by parsers.matching', () => {
  it('takes trimmed valid values and keeps the defaults', () => {
    const s = load({ CAIRN__REPOSITORY__DEFAULT_BRANCH: ' trunk ', CAIRN__SERVER__SSH_DOMAIN: '[::1]', CAIRN__SERVER__SSH_USER: 'gitea' });
    expect([s.defaultBranch, s.sshDomain, s.sshUser]).toEqual(['trunk', '[::1]', 'gitea']);
    expect([load({}).defaultBranch, load({}).sshDomain, load({}).sshUser]).toEqual(['main', '', 'git']);
  });

  it('refuses each invalid value saying what was expected', () => {
    expect(() => load({ CAIRN__REPOSITORY__DEFAULT_BRANCH: 'a..b' })).toThrow('expected a valid git branch name');
    expect(() => load({ CAIRN__SERVER__SSH_DOMAIN: 'host/path' })).toThrow('expected a host name');
    expect(() => load({ CAIRN__SERVER__SSH_USER: 'no spaces' })).toThrow('expected a user name');
  });
});
