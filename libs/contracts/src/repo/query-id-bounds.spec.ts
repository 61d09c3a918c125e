import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { ListPullsQuery, SearchReposQuery } from '@cairn/contracts';

function refused(cls: new () => object, query: Record<string, unknown>): string[] {
  return validateSync(plainToInstance(cls, query)).map((e) => e.property);
}

// schemathesis found both: ids past PostgreSQL's integer reached Prisma and answered 500 instead of 422.
describe('ids in queries stay within the database integer', () => {
  it('GET /repos/search refuses uid, team_id, starredBy and priority_owner_id over 2^31-1', () => {
    const big = '9223372036854775808';
    expect(refused(SearchReposQuery, { uid: big, team_id: big, starredBy: '9007199254740991', priority_owner_id: big }).sort()).toEqual(
      ['priority_owner_id', 'starredBy', 'team_id', 'uid'],
    );
    expect(refused(SearchReposQuery, { uid: '2147483647', starredBy: '1' })).toEqual([]);
  });

  it('GET /repos/{owner}/{repo}/pulls refuses label and milestone ids out of range, keeps the rest', () => {
    expect(refused(ListPullsQuery, { labels: ['4485795341', '3'] })).toEqual(['labels']);
    expect(refused(ListPullsQuery, { labels: '-100000000000000000' })).toEqual(['labels']);
    expect(refused(ListPullsQuery, { milestone: '2147483648' })).toEqual(['milestone']);
    expect(refused(ListPullsQuery, { labels: ['-1', '2147483647'], milestone: '5' })).toEqual([]);
  });
});
