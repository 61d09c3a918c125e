// Each test runs the same call without the part under test, so it shows that part is what makes the difference.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitEnvironment } from './git-environment.js';

const identity = {
  GIT_AUTHOR_NAME: 'Cairn',
  GIT_AUTHOR_EMAIL: 'cairn@localhost',
  GIT_COMMITTER_NAME: 'Cairn',
  GIT_COMMITTER_EMAIL: 'cairn@localhost',
};

describe('gitEnvironment (real git)', () => {
  let root: string;
  let work: string;
  const git = (env: NodeJS.ProcessEnv, ...args: string[]) =>
    execFileSync('git', ['-C', work, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const without = (key: string): NodeJS.ProcessEnv => {
    const env = gitEnvironment(identity);
    delete env[key];
    return env;
  };

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'cairn-git-env-'));
    work = path.join(root, 'work');
    execFileSync('git', ['init', '-q', '-b', 'main', work], { env: gitEnvironment() });
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('takes pathspecs literally: a user path is never a wildcard or magic', () => {
    writeFileSync(path.join(work, 'a.md'), 'a\n');
    writeFileSync(path.join(work, '*.md'), 'star\n');
    git(gitEnvironment(identity), 'add', '--', 'a.md', '*.md');
    expect(git(gitEnvironment(), 'ls-files', '--', '*.md')).toBe('*.md');
    expect(git(gitEnvironment(), 'ls-files', '--', ':(glob)*')).toBe('');
    expect(git(without('GIT_LITERAL_PATHSPECS'), 'ls-files', '--', '*.md').split('\n').sort()).toEqual(['*.md', 'a.md']);
  });

  it('reads no global configuration, even with a HOME that has one', () => {
    const home = path.join(root, 'home');
    mkdirSync(home);
    writeFileSync(path.join(home, '.gitconfig'), '[cairn]\n\tprobe = from-home\n');
    const savedHome = process.env.HOME;
    process.env.HOME = home;
    try {
      expect(() => git(gitEnvironment(), 'config', '--get', 'cairn.probe')).toThrow();
      expect(git(without('GIT_CONFIG_GLOBAL'), 'config', '--get', 'cairn.probe')).toBe('from-home');
    } finally {
      if (savedHome === undefined) delete process.env.HOME;
      else process.env.HOME = savedHome;
    }
  });

  it('ignores replace refs (anyone who can push can push one)', () => {
    writeFileSync(path.join(work, 'f.txt'), '1\n');
    git(gitEnvironment(identity), 'add', '--', 'f.txt');
    git(gitEnvironment(identity), 'commit', '-q', '-m', 'real');
    const real = git(gitEnvironment(), 'rev-parse', 'HEAD');
    git(gitEnvironment(identity), 'commit', '-q', '--allow-empty', '-m', 'substitute');
    const substitute = git(gitEnvironment(), 'rev-parse', 'HEAD');
    git(gitEnvironment(), 'replace', real, substitute);
    expect(git(gitEnvironment(), 'log', '-1', '--format=%s', real)).toBe('real');
    expect(git(without('GIT_NO_REPLACE_OBJECTS'), 'log', '-1', '--format=%s', real)).toBe('substitute');
  });
});
