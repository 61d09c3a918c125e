import { Type } from 'class-transformer';
import { IsIn, IsOptional, ValidateNested } from 'class-validator';
import { ACCESS_LEVELS, RepoRefDto, type AccessLevel } from './repo-access.dto.js';

/** `[repository.signing] SIGNING_FORMAT`, git's `gpg.format`. */
export const SIGNING_KEY_FORMATS = ['openpgp', 'ssh'] as const;
export type SigningKeyFormat = (typeof SIGNING_KEY_FORMATS)[number];

/** In the format the route serves (`signing-key.gpg` → openpgp, `signing-key.pub` → ssh); NOT_FOUND when there is none. */
export class GetSigningKeyRequest {
  @IsIn(SIGNING_KEY_FORMATS) format: SigningKeyFormat;
  /** With SIGNING_KEY = default the repository's own git configuration applies; absent: the instance's. */
  @IsOptional() @ValidateNested() @Type(() => RepoRefDto) repo?: RepoRefDto;
  /** With `repo`: the caller's level on it, judged against `REPO_ACCESS_NEEDS` (read). */
  @IsOptional() @IsIn(ACCESS_LEVELS) access?: AccessLevel;
}

export interface SigningKeyReply {
  content: string;
}
