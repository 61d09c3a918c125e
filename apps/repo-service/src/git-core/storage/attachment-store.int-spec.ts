import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommonSettings } from '@cairn/platform';
import type { RepoSettings } from '../../foundation/config/repo-settings.js';
import { AttachmentStore, AttachmentTooLarge } from './attachment-store.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-it-attachments-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function store(attachmentPath = ''): AttachmentStore {
  const common = { repoRoot: join(dir, 'data', 'repositories') } as CommonSettings;
  return new AttachmentStore(common, { attachmentPath } as RepoSettings);
}

function kib(n: number): Readable {
  return Readable.from(Array.from({ length: n }, (_, i) => Buffer.alloc(1024, i % 256)));
}

describe('AttachmentStore (a real folder)', () => {
  it('defaults to <repository ROOT>/../attachments and follows [attachment] PATH', () => {
    expect(store().root).toBe(join(dir, 'data', 'attachments'));
    expect(store(join(dir, 'elsewhere')).root).toBe(join(dir, 'elsewhere'));
  });

  it('stages into tmp/, moves to <repo id>/<uuid>, reads back with the size, removes', async () => {
    const s = store();
    const staged = await s.stage(kib(3), 4096);
    expect(staged.size).toBe(3072);
    expect(readdirSync(join(s.root, 'tmp'))).toEqual([`${staged.uuid}.part`]);
    await s.commit(7, staged);
    expect(readdirSync(join(s.root, 'tmp'))).toEqual([]);
    expect(readFileSync(s.pathOf(7, staged.uuid)).length).toBe(3072);
    const opened = await s.open(7, staged.uuid);
    expect(opened?.size).toBe(3072);
    opened?.stream.destroy();
    await s.remove(7, [staged.uuid]);
    expect(await s.open(7, staged.uuid)).toBeNull();
  });

  it('refuses a stream past the limit and keeps nothing of it', async () => {
    const s = store();
    await expect(s.stage(kib(5), 4096)).rejects.toBeInstanceOf(AttachmentTooLarge);
    expect(readdirSync(join(s.root, 'tmp'))).toEqual([]);
  });

  it('never builds a path from anything but an id and a uuid', () => {
    const s = store();
    expect(() => s.pathOf(1, '../../etc/passwd')).toThrow();
    expect(() => s.pathOf(0, '0b6f3c1e-2b7a-4f5e-9c1d-8a7b6c5d4e3f')).toThrow();
  });

  it('removes a repository’s folder', async () => {
    const s = store();
    const staged = await s.stage(kib(1), 4096);
    await s.commit(9, staged);
    await s.removeRepository(9);
    expect(existsSync(join(s.root, '9'))).toBe(false);
  });

  it('sweeps temporary files a crash left behind, once they are a day old', async () => {
    const s = store(join(dir, 'sweep'));
    mkdirSync(join(s.root, 'tmp'), { recursive: true });
    writeFileSync(join(s.root, 'tmp', 'old.part'), 'x');
    writeFileSync(join(s.root, 'tmp', 'fresh.part'), 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    utimesSync(join(s.root, 'tmp', 'old.part'), twoDaysAgo, twoDaysAgo);
    expect(await s.sweepTmp()).toBe(1);
    expect(readdirSync(join(s.root, 'tmp'))).toEqual(['fresh.part']);
  });
});
