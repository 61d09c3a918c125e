import { describe, expect, it } from 'vitest';
import { ReleaseSubjects, RepoSubjects, type ReleaseDto } from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { canWrite } from '../repo/write-forms.js';
import { archiveUrl, pager, releaseUrl, toReleaseRow } from './code-views.js';

const context = (access: RepoContext['access'], options: { admin?: boolean; archived?: boolean; anonymous?: boolean } = {}) =>
  ({
    actor: options.anonymous ? null : { id: 1, login: 'u', isAdmin: options.admin ?? false },
    repo: { id: 1, ownerId: 1, ownerName: 'o', name: 'r', defaultBranch: 'main', archived: options.archived ?? false },
    access,
  }) as unknown as RepoContext;

describe('code views', () => {
  it('pages by the service total', () => {
    expect(pager('/o/r/tags', 1, 5)).toEqual({ page: 1, prevUrl: null, nextUrl: null });
    expect(pager('/o/r/tags', 2, 45)).toEqual({ page: 2, prevUrl: '/o/r/tags?page=1', nextUrl: '/o/r/tags?page=3' });
    expect(pager('/o/r/tags', 3, 45)).toEqual({ page: 3, prevUrl: '/o/r/tags?page=2', nextUrl: null });
  });

  it('shows an operation\'s form at its level in REPO_ACCESS_NEEDS and to site admins, never archived or to visitors', () => {
    const create = ReleaseSubjects.create; // write on releases
    expect(canWrite(context('write'), create)).toBe(true);
    expect(canWrite(context('admin'), create)).toBe(true);
    expect(canWrite(context('read'), create)).toBe(false);
    expect(canWrite(context('read', { admin: true }), create)).toBe(true);
    expect(canWrite(context('write', { archived: true }), create)).toBe(false);
    expect(canWrite(context('read', { anonymous: true }), create)).toBe(false);
    // The level comes from the operation: collaborator changes need admin.
    expect(canWrite(context('write'), RepoSubjects.collaboratorAdd)).toBe(false);
    expect(canWrite(context('admin'), RepoSubjects.collaboratorAdd)).toBe(true);
  });

  it('builds archive and release URLs with each segment of a ref encoded', () => {
    expect(archiveUrl('/o/r', 'feature/a b', 'tar.gz')).toBe('/o/r/archive/feature/a%20b.tar.gz');
    expect(releaseUrl('/o/r', 'v1/rc#1')).toBe('/o/r/releases/tag/v1/rc%231');
  });

  it('renders release notes from Markdown (raw HTML escaped) and makes attachment links local', () => {
    const release = {
      id: 3, tag_name: 'v1', target_commitish: 'main', name: '', body: 'Fixes **this** <script>x()</script>',
      draft: false, prerelease: true, created_at: '2026-01-01T00:00:00Z', published_at: '2026-01-02T00:00:00Z',
      author: { login: 'ann' },
      assets: [{ id: 1, name: 'a.tgz', size: 10, download_count: 2, created_at: '', uuid: 'u', browser_download_url: 'https://cairn.example/o/r/releases/download/v1/a.tgz' }],
    } as unknown as ReleaseDto;
    const row = toReleaseRow('/o/r', release);
    expect(row.title).toBe('v1');
    expect(row.notesHtml).toContain('<strong>this</strong>');
    expect(row.notesHtml).not.toContain('<script>');
    expect(row.assets).toEqual([{ name: 'a.tgz', size: 10, downloads: 2, url: '/o/r/releases/download/v1/a.tgz' }]);
    expect(row.publishedAt).toBe('2026-01-02T00:00:00Z');
    expect(row.zipUrl).toBe('/o/r/archive/v1.zip');
  });
});
