import { describe, expect, it } from 'vitest';
import { tipsToWarm } from './last-commit-warmer.js';

const ZERO = '0'.repeat(40);
const id = (c: string) => c.repeat(40);

describe('tipsToWarm', () => {
  it('takes new branch tips, the one HEAD points at first, each commit once, at most the limit', () => {
    const pushed = [
      { ref: 'refs/heads/a', new: id('a') },
      { ref: 'refs/tags/v1', new: id('1') },
      { ref: 'refs/heads/deleted', new: ZERO },
      { ref: 'refs/heads/b', new: id('b') },
      { ref: 'refs/heads/same-as-a', new: id('a') },
      { ref: 'refs/heads/main', new: id('c') },
      { ref: 'refs/heads/d', new: id('d') },
    ];
    expect(tipsToWarm(pushed, 'refs/heads/main')).toEqual([id('c'), id('a'), id('b')]);
    expect(tipsToWarm(pushed, null, 10)).toEqual([id('a'), id('b'), id('c'), id('d')]);
    expect(tipsToWarm([{ ref: 'refs/heads/x', new: ZERO }], 'refs/heads/x')).toEqual([]);
  });
});
