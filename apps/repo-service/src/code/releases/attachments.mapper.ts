import { toApiTime } from '@cairn/contracts';
import type { AttachmentDto } from '@cairn/contracts';
import { escapeSegments } from '../git-data/git-data.mapper.js';
import type { AttachmentRow } from './attachments.repository.js';

/** `{html_url}/releases/download/{tag}/` (the tag's slashes kept): an attachment's download URL without its name. */
export function downloadBase(htmlUrl: string, tagName: string): string {
  return `${htmlUrl}/releases/download/${escapeSegments(tagName)}/`;
}

/** Gitea's `Attachment`; `browser_download_url` is the release download route, as Gitea's release JSON has it. */
export function toAttachmentDto(row: AttachmentRow, base: string): AttachmentDto {
  return {
    id: row.id,
    name: row.name,
    size: row.size,
    download_count: row.downloadCount,
    created_at: toApiTime(row.createdAt),
    uuid: row.uuid,
    browser_download_url: `${base}${encodeURIComponent(row.name)}`,
  };
}
