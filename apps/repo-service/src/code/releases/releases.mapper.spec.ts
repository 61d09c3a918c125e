import { describe, expect, it } from 'vitest';
import { toReleaseDto } from './releases.mapper.js';

describe('toReleaseDto', () => {
  it("renders Gitea's Release: links from the tag (segments escaped), published_at = created_at, no assets", () => {
    const author = { id: 2, login: 'ann' } as never;
    const dto = toReleaseDto(
      {
        id: 5, repoId: 1, tagName: 'v1/rc 1', target: 'main', title: 'T', note: 'N', isDraft: false, isPrerelease: true,
        publisherId: 2, sha1: 'a'.repeat(40), createdAt: new Date('2026-01-02T03:04:05.678Z'),
      },
      author,
      'http://h/api/v1/repos/o/r',
      'http://h/o/r',
    );
    expect(dto).toEqual({
      id: 5,
      tag_name: 'v1/rc 1',
      target_commitish: 'main',
      name: 'T',
      body: 'N',
      url: 'http://h/api/v1/repos/o/r/releases/5',
      html_url: 'http://h/o/r/releases/tag/v1/rc%201',
      tarball_url: 'http://h/o/r/archive/v1/rc%201.tar.gz',
      zipball_url: 'http://h/o/r/archive/v1/rc%201.zip',
      upload_url: 'http://h/api/v1/repos/o/r/releases/5/assets',
      draft: false,
      prerelease: true,
      created_at: '2026-01-02T03:04:05Z',
      published_at: '2026-01-02T03:04:05Z',
      author,
      assets: [],
    });
  });
});
