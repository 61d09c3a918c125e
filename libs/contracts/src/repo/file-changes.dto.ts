import { Type } from 'class-transformer';
import {
  ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsRFC3339, IsString, MaxLength, Min, ValidateNested,
} from 'class-validator';
import type { CommitMetaDto, CommitUserDto, PayloadCommitVerificationDto } from './commits.dto.js';
import type { ContentsResponseDto } from './contents.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

export class IdentityBody {
  @IsOptional() @IsString() @MaxLength(255) name?: string;
  @IsOptional() @IsString() @MaxLength(255) email?: string;
}

export class CommitDatesBody {
  @IsOptional() @IsRFC3339() author?: string;
  @IsOptional() @IsRFC3339() committer?: string;
}

export class FileOptionsBody {
  /** Gitea's "Add …" / "Update …" / "Delete …" when absent. */
  @IsOptional() @IsString() @MaxLength(65536) message?: string;
  @IsOptional() @IsString() @MaxLength(255) branch?: string;
  @IsOptional() @IsString() @MaxLength(255) new_branch?: string;
  @IsOptional() @ValidateNested() @Type(() => IdentityBody) author?: IdentityBody;
  @IsOptional() @ValidateNested() @Type(() => IdentityBody) committer?: IdentityBody;
  @IsOptional() @ValidateNested() @Type(() => CommitDatesBody) dates?: CommitDatesBody;
  @IsOptional() @IsBoolean() signoff?: boolean;
  @IsOptional() @IsBoolean() force_push?: boolean;
}

export class CreateFileBody extends FileOptionsBody {
  @IsString() content: string;
}

export class UpdateFileBody extends FileOptionsBody {
  @IsString() content: string;
  /** Without it the file must not exist yet (it is created: 201). */
  @IsOptional() @IsString() @MaxLength(64) sha?: string;
  @IsOptional() @IsString() @MaxLength(4096) from_path?: string;
}

export class DeleteFileBody extends FileOptionsBody {
  @IsString() @MaxLength(64) sha: string;
}

/** Gitea 1.25's `ChangeFileOperation`. */
export const FILE_OPERATIONS = ['create', 'update', 'upload', 'rename', 'delete'] as const;
export type FileOperation = (typeof FILE_OPERATIONS)[number];

export class ChangeFileOperationBody {
  @IsIn(FILE_OPERATIONS) operation: FileOperation;
  @IsString() @MaxLength(4096) path: string;
  @IsOptional() @IsString() content?: string;
  @IsOptional() @IsString() @MaxLength(64) sha?: string;
  @IsOptional() @IsString() @MaxLength(4096) from_path?: string;
}

export class ChangeFilesBody extends FileOptionsBody {
  @IsArray() @ArrayNotEmpty() @ValidateNested({ each: true }) @Type(() => ChangeFileOperationBody) files: ChangeFileOperationBody[];
}

export class ChangeFilesRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ChangeFilesBody) body: ChangeFilesBody;
  @IsInt() @Min(0) maxBlobSize: number;
}

export interface FileCommitResponseDto {
  url: string;
  sha: string;
  created: string;
  html_url: string;
  author: CommitUserDto;
  committer: CommitUserDto;
  parents: CommitMetaDto[];
  message: string;
  tree: CommitMetaDto;
}

export interface FilesResponseDto {
  files: (ContentsResponseDto | null)[];
  commit: FileCommitResponseDto;
  verification: PayloadCommitVerificationDto;
}

export interface FileResponseDto {
  content: ContentsResponseDto | null;
  commit: FileCommitResponseDto;
  verification: PayloadCommitVerificationDto;
}

export interface FileDeleteResponseDto {
  content: null;
  commit: FileCommitResponseDto;
  verification: PayloadCommitVerificationDto;
}

/** `deferred`: indexes of `files` too large for a bus message (filled in over internal HTTP, as for `repo.contents.get`). */
export interface ChangeFilesReply {
  response: FilesResponseDto;
  deferred: number[];
  created: boolean;
}
