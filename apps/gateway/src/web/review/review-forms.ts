import { DomainError } from '@cairn/contracts';
import type { DiffSide } from '../repo/diff-view.js';

// Form fields checked for shape only: what they mean (who may approve, which labels exist) is repo-service's.

/** Gitea's `base...head` (or `base..head`; only `head`: against the default branch). */
export function splitCompare(basehead: string, defaultBranch: string): { base: string; head: string } {
  const at = basehead.indexOf('...');
  const two = basehead.indexOf('..');
  const [base, head] = at >= 0
    ? [basehead.slice(0, at), basehead.slice(at + 3)]
    : two >= 0 ? [basehead.slice(0, two), basehead.slice(two + 2)] : [defaultBranch, basehead];
  if (!base || !head) throw DomainError.notFound('base and head are required');
  return { base, head };
}

/** The compare page of two refs (`/` and a fork's `owner:` kept readable, everything else encoded). */
export function compareUrl(repoBase: string, base: string, head: string): string {
  const enc = (ref: string) => ref.split('/').map((s) => encodeURIComponent(s).replace(/%3A/gi, ':')).join('/');
  return `${repoBase}/compare/${enc(base)}...${enc(head)}`;
}

export function headBranch(head: string): string {
  const colon = head.indexOf(':');
  return colon < 0 ? head : head.slice(colon + 1);
}

/** Comma-separated (Gitea's `label_ids`) or repeated (one checkbox each); anything but positive integers is a 400. */
export function idsField(body: unknown, name: string): number[] {
  const raw = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
  const ids = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  if (ids.length > 100) throw DomainError.invalid(`${name}: too many ids`);
  return [...new Set(ids.map((v) => {
    if (!/^\d{1,9}$/.test(v) || Number(v) < 1) throw DomainError.invalid(`${name} must be comma-separated ids`);
    return Number(v);
  }))];
}

/** `milestone_id`: empty or 0 is none. */
export function milestoneField(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 0;
  if (!/^\d{1,9}$/.test(raw.trim())) throw DomainError.invalid('milestone_id must be an id');
  return Number(raw.trim());
}

/** A line comment's place: `path`, `line` (positive), `side` (`previous`/`proposed`). */
export interface LinePlace {
  path: string;
  line: number;
  side: DiffSide;
}

export function linePlace(fields: Record<string, string | undefined>): LinePlace {
  const path = (fields.path ?? '').trim();
  if (!path || path.length > 4096 || path.includes('\0')) throw DomainError.invalid('path is required');
  const line = fields.line ?? '';
  if (!/^\d{1,9}$/.test(line) || Number(line) < 1) throw DomainError.invalid('line must be a positive line number');
  const side = fields.side ?? 'proposed';
  if (side !== 'previous' && side !== 'proposed') throw DomainError.invalid('side must be previous or proposed');
  return { path, line: Number(line), side };
}

/** Gitea's review `type` field and the API's review `event` it stands for. */
const REVIEW_EVENTS = { approve: 'APPROVED', comment: 'COMMENT', reject: 'REQUEST_CHANGES' } as const;
export type ReviewType = keyof typeof REVIEW_EVENTS;

export function reviewEvent(type: string | undefined): (typeof REVIEW_EVENTS)[ReviewType] {
  if (type === 'approve' || type === 'comment' || type === 'reject') return REVIEW_EVENTS[type];
  throw DomainError.invalid('type must be approve, comment or reject');
}
