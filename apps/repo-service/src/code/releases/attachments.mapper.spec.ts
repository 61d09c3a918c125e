import { describe, expect, it } from 'vitest';
import { isValidAttachmentName } from '@cairn/contracts';
import { downloadBase, toAttachmentDto } from './attachments.mapper.js';

describe('toAttachmentDto', () => {
  it("renders Gitea's Attachment with the release download URL (tag segments and the name escaped)", () => {
    const row = {
      id: 3, uuid: '0b6f3c1e-2b7a-4f5e-9c1d-8a7b6c5d4e3f', repoId: 1, releaseId: 2, uploaderId: 4, name: 'tool 1.0#x.tar.gz',
      size: 1234, sha256: 'ab'.repeat(32), downloadCount: 7, createdAt: new Date('2026-01-02T03:04:05.678Z'),
    };
    expect(toAttachmentDto(row, downloadBase('http://h/o/r', 'v1/rc 1'))).toEqual({
      id: 3,
      name: 'tool 1.0#x.tar.gz',
      size: 1234,
      download_count: 7,
      created_at: '2026-01-02T03:04:05Z',
      uuid: row.uuid,
      browser_download_url: 'http://h/o/r/releases/download/v1/rc%201/tool%201.0%23x.tar.gz',
    });
  });
});

describe('isValidAttachmentName', () => {
  it('takes a file name, never a path or control characters', () => {
    for (const ok of ['a.txt', 'tool 1.0.tar.gz', 'ünï.bin', '..a', 'x'.repeat(255)]) expect(isValidAttachmentName(ok), ok).toBe(true);
    for (const bad of ['', '.', '..', 'a/b', 'a\\b', 'a\nb', 'a\0b', 'x'.repeat(256)]) expect(isValidAttachmentName(bad), bad).toBe(false);
  });
});
