import { describe, expect, it } from 'vitest';
import { gitSubcommand } from './git-process.js';

describe('gitSubcommand', () => {
  it('finds the subcommand after git global options and their values', () => {
    expect(gitSubcommand(['log', '--end-of-options', 'main'])).toBe('log');
    expect(gitSubcommand(['-c', 'core.hooksPath=/x', 'receive-pack', '--stateless-rpc'])).toBe('receive-pack');
    expect(gitSubcommand(['--git-dir', '/r.git', '-C', '/tmp', 'cat-file', '--batch'])).toBe('cat-file');
    expect(gitSubcommand(['--git-dir=/r.git', 'rev-parse'])).toBe('rev-parse');
  });

  it('is empty when there is none', () => {
    expect(gitSubcommand([])).toBe('');
    expect(gitSubcommand(['-c', 'a=b'])).toBe('');
  });
});
