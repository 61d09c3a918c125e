import { describe, expect, it } from 'vitest';
import { parseSshGitCommand, sanitizeGitProtocol } from './git-service-request.js';

describe('parseSshGitCommand', () => {
  it.each([
    ["git-upload-pack '/alice/project.git'", 'upload-pack', 'alice', 'project'],
    ["git-upload-pack 'alice/project.git'", 'upload-pack', 'alice', 'project'],
    ["git-receive-pack '/alice/project.git'", 'receive-pack', 'alice', 'project'],
    ["git-receive-pack 'alice/project'", 'receive-pack', 'alice', 'project'],
    ["git upload-pack '/alice/project.git'", 'upload-pack', 'alice', 'project'],
    ["git receive-pack 'alice/project.git'", 'receive-pack', 'alice', 'project'],
    ['git-upload-pack alice/project.git', 'upload-pack', 'alice', 'project'],
    ['git-upload-pack /Alice/My.Project_1-x', 'upload-pack', 'Alice', 'My.Project_1-x'],
    ["git-upload-pack '/alice/project.GIT'", 'upload-pack', 'alice', 'project'],
    ["git-upload-pack '/alice/-dash.git'", 'upload-pack', 'alice', '-dash'],
    ["git-receive-pack '/alice/--help'", 'receive-pack', 'alice', '--help'],
  ])('accepts %s', (command, service, owner, repo) => {
    expect(parseSshGitCommand(command)).toEqual({ service, owner, repo });
  });

  it.each([
    "git-upload-pack '../x'",
    "git-upload-pack '/../x.git'",
    "git-upload-pack '/alice/../x.git'",
    "git-upload-pack '--upload-pack=evil'",
    "git-upload-pack '/-alice/x'",
    "git-upload-pack 'alice/project.git' extra",
    "git-upload-pack 'alice/project.git' 'bob/other.git'",
    "git-upload-pack 'alice/project.git'; rm -rf /",
    "git-upload-pack 'alice/project.git'\n",
    "git-upload-pack  'alice/project.git'",
    'git-upload-pack "alice/project.git"',
    "git-upload-pack 'alice/project.git",
    "git-upload-pack 'alice/sub/project.git'",
    "git-upload-pack 'alice'",
    "git-upload-pack '/alice/.git'",
    "git-upload-pack '/alice/x.git.git'",
    "git-upload-archive 'alice/project.git'",
    "git-upload-pack '/alice/$(id)'",
    "sh -c 'git-upload-pack alice/project.git'",
    'sh -c id',
    'ls',
    'git',
    '',
    "GIT_DIR=/etc git-upload-pack 'alice/project.git'",
  ])('rejects %j', (command) => {
    const parsed = parseSshGitCommand(command);
    expect(parsed).toHaveProperty('error');
    expect((parsed as { error: string }).error).toMatch(/\S/);
  });
});

describe('sanitizeGitProtocol', () => {
  it('passes what git sends', () => {
    expect(sanitizeGitProtocol('version=2')).toBe('version=2');
    expect(sanitizeGitProtocol('version=2:object-format=sha1')).toBe('version=2:object-format=sha1');
  });

  it('drops anything else', () => {
    expect(sanitizeGitProtocol(undefined)).toBeUndefined();
    expect(sanitizeGitProtocol('')).toBeUndefined();
    expect(sanitizeGitProtocol('version=2; rm')).toBeUndefined();
    expect(sanitizeGitProtocol('x'.repeat(200))).toBeUndefined();
  });
});
