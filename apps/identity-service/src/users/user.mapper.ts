import { EPOCH_TIME, toApiTime } from '@cairn/contracts';
import { createHash } from 'node:crypto';
import type { ActorDto, OwnerDto, UserDto, UserSettingsDto, Visibility } from '@cairn/contracts';
import type { UserRow } from './users.repository.js';

export interface UserViewContext {
  rootUrl: string;
  viewer: ActorDto | null;
}

/** Gitea's avatar URL when no custom avatar is set: a stable URL derived from the e-mail (or name). */
export function avatarUrl(rootUrl: string, row: Pick<UserRow, 'email' | 'lowerName'>): string {
  const seed = (row.email || row.lowerName).trim().toLowerCase();
  return `${rootUrl}avatars/${createHash('md5').update(seed).digest('hex')}`;
}

/** Gitea's placeholder e-mail (`<name>@noreply.<domain>`), shown instead of a hidden address. */
export function placeholderEmail(rootUrl: string, lowerName: string): string {
  return `${lowerName}@noreply.${new URL(rootUrl).hostname}`;
}

/** The lower-cased user name a no-reply address (`<name>@noreply.<domain>`) stands for; null for other addresses. */
export function noReplyLowerName(rootUrl: string, email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at <= 0) return null;
  return email.slice(at + 1).toLowerCase() === `noreply.${new URL(rootUrl).hostname}` ? email.slice(0, at).toLowerCase() : null;
}

/** Cairn keeps one address per user, activated while the account is (Gitea's `email_address` with `is_activated`). */
export function activatedEmails(row: Pick<UserRow, 'lowerEmail' | 'isActive'>): string[] {
  return row.lowerEmail && row.isActive ? [row.lowerEmail] : [];
}

/** Gitea's `User` JSON; e-mail and account details only for the user themself and site admins. */
export function toUserDto(row: UserRow, { rootUrl, viewer }: UserViewContext): UserDto {
  const authed = viewer !== null && (viewer.isAdmin || viewer.id === row.id);
  return {
    id: row.id,
    login: row.name,
    login_name: authed ? row.loginName : '',
    source_id: authed ? row.sourceId : 0,
    full_name: row.fullName,
    email: authed || row.type === 'organization' ? row.email : placeholderEmail(rootUrl, row.lowerName),
    avatar_url: avatarUrl(rootUrl, row),
    html_url: `${rootUrl}${row.name}`,
    language: authed ? row.language : '',
    is_admin: authed ? row.isAdmin : false,
    last_login: authed && row.lastLoginAt ? toApiTime(row.lastLoginAt) : EPOCH_TIME,
    created: toApiTime(row.createdAt),
    restricted: row.restricted,
    active: authed ? row.isActive : false,
    prohibit_login: authed ? row.prohibitLogin : false,
    location: row.location,
    website: row.website,
    description: row.description,
    visibility: row.visibility as Visibility,
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: row.name,
  };
}

/** An owner as other services need it (rendered as an anonymous viewer sees it). */
export function toOwnerDto(row: UserRow, rootUrl: string): OwnerDto {
  return {
    id: row.id,
    login: row.name,
    kind: row.type === 'organization' ? 'organization' : 'user',
    visibility: row.visibility as Visibility,
    user: toUserDto(row, { rootUrl, viewer: null }),
  };
}

export function toUserSettingsDto(u: UserRow): UserSettingsDto {
  return {
    full_name: u.fullName,
    website: u.website,
    description: u.description,
    location: u.location,
    language: u.language,
    hide_email: u.hideEmail,
    hide_activity: u.hideActivity,
    diff_view_style: u.diffViewStyle,
    theme: u.theme,
  };
}
