import { Type } from 'class-transformer';
import { IsIn, IsOptional, ValidateNested } from 'class-validator';
import { ACCESS_LEVELS, RepoRefDto, type AccessLevel } from './repo-access.dto.js';

/** The formats of the instance signing key (`[repository.signing] SIGNING_FORMAT`, git's `gpg.format`). */
export const SIGNING_KEY_FORMATS = ['openpgp', 'ssh'] as const;
export type SigningKeyFormat = (typeof SIGNING_KEY_FORMATS)[number];

/**
 * `repo.signing-key.get`: the public half of the key Cairn signs its commits with, in the format the route serves
 * (`signing-key.gpg` → openpgp, `signing-key.pub` → ssh). NOT_FOUND "no signing key" when there is none, "signing key
 * format is <format>" when the key has the other format.
 */
export class GetSigningKeyRequest {
  @IsIn(SIGNING_KEY_FORMATS) format: SigningKeyFormat;
  /** The repository whose commits are meant (with SIGNING_KEY = default its own git configuration applies); absent: the instance's. */
  @IsOptional() @ValidateNested() @Type(() => RepoRefDto) repo?: RepoRefDto;
  /** With `repo`: the caller's level on it, judged against `REPO_ACCESS_NEEDS` (read). */
  @IsOptional() @IsIn(ACCESS_LEVELS) access?: AccessLevel;
}

export interface SigningKeyReply {
  /** An OpenSSH public key line, or an armored OpenPGP public key. */
  content: string;
}
