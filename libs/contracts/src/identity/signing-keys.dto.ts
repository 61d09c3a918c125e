import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import type { UserDto } from './user.dto.js';

/** One call per page of commits; OpenPGP key owners are looked up by key id across all users, as Gitea does. */
export class SigningKeysRequest {
  @IsArray() @ArrayMaxSize(500) @IsString({ each: true }) @MaxLength(320, { each: true }) emails: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(500) @IsString({ each: true }) @MaxLength(40, { each: true }) gpgKeyIds?: string[];
}

export interface SigningSshKey {
  id: number;
  fingerprint: string;
  content: string;
}

export interface SigningGpgKey {
  id: number;
  keyId: string;
  subkeyIds: string[];
  armored: string;
  emails: string[];
  canSign: boolean;
  verified: boolean;
}

export interface SigningKeyOwner {
  user: UserDto;
  /** Changes with the user's keys or addresses: verification results are cached per (commit, owner id, keysVersion). */
  keysVersion: string;
  /** With a verified key, a commit by any of them verifies (Gitea's `checkKeyEmails`). */
  activatedEmails: string[];
  noReplyEmail: string;
  sshKeys: SigningSshKey[];
  gpgKeys: SigningGpgKey[];
}

export interface SigningKeysReply {
  byEmail: Record<string, SigningKeyOwner>;
  byGpgKeyId: Record<string, SigningKeyOwner>;
}
