import { describe, expect, it } from 'vitest';
import type { UserDto } from '@cairn/contracts';
import { CommitUserDirectory, RecentCommitLogins } from './commit-users.js';

/** A directory of fixed users that records every lookup it answers. */
class CountingDirectory extends CommitUserDirectory {
  readonly asked: string[][] = [];
  constructor(readonly users: Record<string, string>) {
    super();
  }
  async byEmails(emails: string[]): Promise<Map<string, UserDto>> {
    this.asked.push(emails);
    const out = new Map<string, UserDto>();
    for (const e of emails) if (this.users[e]) out.set(e, { login: this.users[e] } as UserDto);
    return out;
  }
}

describe('RecentCommitLogins', () => {
  it('answers logins by lower-cased e-mail, null for addresses nobody owns', async () => {
    const directory = new CountingDirectory({ 'ann@example.com': 'ann' });
    const logins = new RecentCommitLogins(directory);
    const got = await logins.logins(['Ann@Example.com', 'ann@example.com', 'nobody@example.com']);
    expect(got).toEqual(new Map([['ann@example.com', 'ann'], ['nobody@example.com', null]]));
    expect(directory.asked).toEqual([['ann@example.com', 'nobody@example.com']]);
  });

  it('reuses answers (owned or not) within the age limit and asks again after it', async () => {
    const directory = new CountingDirectory({ 'ann@example.com': 'ann' });
    let now = 1_000;
    const logins = new RecentCommitLogins(directory, 10_000, 100, () => now);
    await logins.logins(['ann@example.com', 'nobody@example.com']);
    now += 9_999;
    expect(await logins.logins(['nobody@example.com', 'ann@example.com'])).toEqual(
      new Map([['nobody@example.com', null], ['ann@example.com', 'ann']]),
    );
    expect(directory.asked).toHaveLength(1);

    directory.users['nobody@example.com'] = 'newcomer';
    now += 1;
    expect((await logins.logins(['nobody@example.com', 'ann@example.com'])).get('nobody@example.com')).toBe('newcomer');
    expect(directory.asked).toEqual([['ann@example.com', 'nobody@example.com'], ['nobody@example.com', 'ann@example.com']]);
  });

  it('asks only for the addresses it does not know', async () => {
    const directory = new CountingDirectory({ 'ann@example.com': 'ann', 'bo@example.com': 'bo' });
    const logins = new RecentCommitLogins(directory);
    await logins.logins(['ann@example.com']);
    expect(await logins.logins(['ann@example.com', 'bo@example.com'])).toEqual(new Map([['ann@example.com', 'ann'], ['bo@example.com', 'bo']]));
    expect(directory.asked).toEqual([['ann@example.com'], ['bo@example.com']]);
  });
});
