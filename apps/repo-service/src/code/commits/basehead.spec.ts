import { describe, expect, it } from 'vitest';
import type { RepoRefDto } from '@cairn/contracts';
import { splitBaseHead } from './basehead.js';

const repo = { id: 1, ownerId: 2, ownerName: 'Alice', name: 'demo', defaultBranch: 'main' } as RepoRefDto;

describe('splitBaseHead', () => {
  it('splits on the first `...`, else the first `..`, else compares with the default branch', () => {
    expect(splitBaseHead('main...feature/x', repo)).toEqual({ base: 'main', head: 'feature/x' });
    expect(splitBaseHead('v1..abc123', repo)).toEqual({ base: 'v1', head: 'abc123' });
    expect(splitBaseHead('feature', repo)).toEqual({ base: 'main', head: 'feature' });
    // As Gitea's SplitN: the rest after the first separator is the head, dots included.
    expect(splitBaseHead('a....b', repo)).toEqual({ base: 'a', head: '.b' });
  });

  it('accepts a head naming this repository (owner case-insensitive), refuses any other with 404', () => {
    expect(splitBaseHead('main...alice:topic', repo)).toEqual({ base: 'main', head: 'topic' });
    expect(splitBaseHead('main...Alice/Demo:topic', repo)).toEqual({ base: 'main', head: 'topic' });
    expect(() => splitBaseHead('main...bob:topic', repo)).toThrow('comparing with another repository ("bob") is not supported');
    expect(() => splitBaseHead('main...alice/fork:topic', repo)).toThrow('is not supported');
    expect(() => splitBaseHead('main...a:b:c', repo)).toThrow('invalid compare head');
  });

  it('needs both refs', () => {
    expect(() => splitBaseHead('main...', repo)).toThrow('base and head are required');
    expect(() => splitBaseHead('...main', repo)).toThrow('base and head are required');
    expect(() => splitBaseHead('main...alice:', repo)).toThrow('base and head are required');
  });
});
