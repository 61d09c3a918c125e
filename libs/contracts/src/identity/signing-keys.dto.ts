import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import type { UserDto } from './user.dto.js';

/**
 * `identity.signing.keys`: what repo-service needs to verify the signatures of a page of commits, in one call —
 * the accounts owning the committers' e-mail addresses with their keys, and the owners of the OpenPGP keys the
 * signatures name (Gitea looks those up by key id across all users).
 */
export class SigningKeysRequest {
  /** Committer e-mail addresses (any case; matched against primary, activated and no-reply addresses). */
  @IsArray() @ArrayMaxSize(500) @IsString({ each: true }) @MaxLength(320, { each: true }) emails: string[];
  /** OpenPGP issuer key ids (16 hex digits, upper case) found in the signatures. */
  @IsOptional() @IsArray() @ArrayMaxSize(500) @IsString({ each: true }) @MaxLength(40, { each: true }) gpgKeyIds?: string[];
}

/** An SSH key whose owner proved they hold it (`verified`); principal keys are never included. */
export interface SigningSshKey {
  id: number;
  /** `SHA256:…` */
  fingerprint: string;
  /** `type base64` (OpenSSH public key line without comment). */
  content: string;
}

/** An OpenPGP key as uploaded (`POST /user/gpg_keys`). */
export interface SigningGpgKey {
  id: number;
  /** The primary key's id (16 hex digits, upper case). */
  keyId: string;
  /** Ids of its subkeys (16 hex digits, upper case). */
  subkeyIds: string[];
  /** The armored public key as uploaded. */
  armored: string;
  /** The key's e-mail addresses that are activated addresses of its owner (lower case). */
  emails: string[];
  /** The key (or one of its subkeys) may sign. */
  canSign: boolean;
  /** The owner proved they hold the key (`/user/gpg_key_verify`). */
  verified: boolean;
}

/** A user with everything that may have signed their commits. */
export interface SigningKeyOwner {
  user: UserDto;
  /**
   * Changes whenever this user's keys or e-mail addresses change (a key added, deleted or verified; an address
   * added, removed or activated): verification results are cached per (commit, owner id, keysVersion).
   */
  keysVersion: string;
  /**
   * The owner's activated e-mail addresses (lower case): with a verified key, a commit by any of them verifies
   * (Gitea's `checkKeyEmails`). Added for the verifier; covered by `keysVersion`.
   */
  activatedEmails: string[];
  /** The owner's no-reply address (`<name>@noreply.<domain>`, lower case), which also counts as theirs. */
  noReplyEmail: string;
  sshKeys: SigningSshKey[];
  gpgKeys: SigningGpgKey[];
}

export interface SigningKeysReply {
  /** Lower-cased committer e-mail → the account it belongs to (absent: no account). */
  byEmail: Record<string, SigningKeyOwner>;
  /** Requested OpenPGP key id → the owner of the key (primary or subkey) with that id (absent: unknown key). */
  byGpgKeyId: Record<string, SigningKeyOwner>;
}
