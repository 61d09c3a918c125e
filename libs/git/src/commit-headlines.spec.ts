import { describe, expect, it } from 'vitest';
import type { CatFileCommand, CatFileObject } from './cat-file-pool.js';
import { CommitHeadlineCache, readCommitHeadlines } from './commit-headlines.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const P = 'c'.repeat(40);

function commitObject(message: string, parent?: string): Buffer {
  return Buffer.from(
    `tree ${'d'.repeat(40)}\n${parent ? `parent ${parent}\n` : ''}` +
      'author Ann Author <Ann@Example.com> 1700000000 +0100\n' +
      'committer Cy Committer <cy@example.com> 1700000100 +0000\n' +
      `\n${message}`,
  );
}

function objectStore(objects: Record<string, Buffer>) {
  const asked: string[][] = [];
  const pool = {
    async run(_repoPath: string, commands: CatFileCommand[]): Promise<(CatFileObject | null)[]> {
      asked.push(commands.map((c) => c.object));
      return commands.map((c) => {
        const data = objects[c.object];
        return data ? { oid: c.object, type: 'commit', size: data.length, data } : null;
      });
    },
  };
  return { pool, asked };
}

describe('readCommitHeadlines', () => {
  it('reads the title, author, dates and parents of each commit once', async () => {
    const { pool } = objectStore({ [A]: commitObject('  Fix the parser \n\nThe body.\n', P), [B]: commitObject('Single line') });
    const headlines = await readCommitHeadlines(pool, '/r', [A, B, A], new CommitHeadlineCache());
    expect([...headlines.keys()]).toEqual([A, B]);
    expect(headlines.get(A)).toEqual({
      title: 'Fix the parser',
      authorName: 'Ann Author',
      authorEmail: 'Ann@Example.com',
      authorDate: '2023-11-14T23:13:20+01:00',
      committerDate: '2023-11-14T22:15:00Z',
      parents: [P],
    });
    expect(headlines.get(B)?.title).toBe('Single line');
  });

  it('answers cached commits without reading them again, and reads only the others', async () => {
    const { pool, asked } = objectStore({ [A]: commitObject('first'), [B]: commitObject('second') });
    const cache = new CommitHeadlineCache();
    await readCommitHeadlines(pool, '/r', [A], cache);
    const again = await readCommitHeadlines(pool, '/fork', [A, B], cache);
    expect(asked).toEqual([[A], [B]]);
    expect(again.get(A)?.title).toBe('first');
    expect(again.get(B)?.title).toBe('second');
    await readCommitHeadlines(pool, '/r', [B, A], cache);
    expect(asked).toHaveLength(2);
  });

  it('keeps at most its bound, least recently used going first', async () => {
    const { pool, asked } = objectStore({ [A]: commitObject('first'), [B]: commitObject('second'), [P]: commitObject('third') });
    const cache = new CommitHeadlineCache(2);
    await readCommitHeadlines(pool, '/r', [A, B, P], cache);
    expect(cache.size).toBe(2);
    await readCommitHeadlines(pool, '/r', [A], cache);
    expect(asked.at(-1)).toEqual([A]);
  });

  it('fails for an id that is not a commit (and caches nothing for it)', async () => {
    const { pool } = objectStore({});
    const cache = new CommitHeadlineCache();
    await expect(readCommitHeadlines(pool, '/r', [A], cache)).rejects.toThrow(/not a commit/);
    expect(cache.size).toBe(0);
  });
});
