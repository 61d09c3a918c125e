import { Type } from 'class-transformer';
import {
  ArrayNotEmpty, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsRFC3339, IsString, MaxLength, Min, ValidateNested,
} from 'class-validator';
import type { CommitMetaDto, CommitUserDto, PayloadCommitVerificationDto } from './commits.dto.js';
import type { ContentsResponseDto } from './contents.dto.js';
import { RepoScopedRequest } from './repo-access.dto.js';

/** Gitea's `Identity`: a commit author or committer given by the caller. */
export class IdentityBody {
  @IsOptional() @IsString() @MaxLength(255) name?: string;
  @IsOptional() @IsString() @MaxLength(255) email?: string;
}

/** Gitea's `CommitDateOptions`: RFC 3339 author and committer dates (now when absent). */
export class CommitDatesBody {
  @IsOptional() @IsRFC3339() author?: string;
  @IsOptional() @IsRFC3339() committer?: string;
}

/** Gitea's `FileOptions`: what every contents write route takes besides its files. */
export class FileOptionsBody {
  /** Commit message; Gitea's "Add …" / "Update …" / "Delete …" when absent. */
  @IsOptional() @IsString() @MaxLength(65536) message?: string;
  /** The branch to change (default branch when absent). */
  @IsOptional() @IsString() @MaxLength(255) branch?: string;
  /** Commit to a new branch made from `branch` instead. */
  @IsOptional() @IsString() @MaxLength(255) new_branch?: string;
  @IsOptional() @ValidateNested() @Type(() => IdentityBody) author?: IdentityBody;
  @IsOptional() @ValidateNested() @Type(() => IdentityBody) committer?: IdentityBody;
  @IsOptional() @ValidateNested() @Type(() => CommitDatesBody) dates?: CommitDatesBody;
  /** Add a `Signed-off-by:` trailer for the committer. */
  @IsOptional() @IsBoolean() signoff?: boolean;
  /** Overwrite `new_branch` when it exists already. */
  @IsOptional() @IsBoolean() force_push?: boolean;
}

/** Gitea's `CreateFileOptions` (`POST …/contents/{filepath}`). */
export class CreateFileBody extends FileOptionsBody {
  @IsString() content: string;
}

/** Gitea's `UpdateFileOptions` (`PUT …/contents/{filepath}`). */
export class UpdateFileBody extends FileOptionsBody {
  @IsString() content: string;
  /** Blob id of the file being replaced; without it the file must not exist yet (it is created: 201). */
  @IsOptional() @IsString() @MaxLength(64) sha?: string;
  /** Rename: the file's current path (the URL names the new one). */
  @IsOptional() @IsString() @MaxLength(4096) from_path?: string;
}

/** Gitea's `DeleteFileOptions` (`DELETE …/contents/{filepath}`). */
export class DeleteFileBody extends FileOptionsBody {
  /** Blob id of the file being deleted. */
  @IsString() @MaxLength(64) sha: string;
}

/** The operations of `ChangeFileOperation` (Gitea 1.25). */
export const FILE_OPERATIONS = ['create', 'update', 'upload', 'rename', 'delete'] as const;
export type FileOperation = (typeof FILE_OPERATIONS)[number];

/** Gitea's `ChangeFileOperation`: one file of a multi-file change. */
export class ChangeFileOperationBody {
  @IsIn(FILE_OPERATIONS) operation: FileOperation;
  @IsString() @MaxLength(4096) path: string;
  /** Base64 bytes (create, update, upload; rename keeps the old content when absent). */
  @IsOptional() @IsString() content?: string;
  @IsOptional() @IsString() @MaxLength(64) sha?: string;
  @IsOptional() @IsString() @MaxLength(4096) from_path?: string;
}

/** Gitea's `ChangeFilesOptions` (`POST …/contents`). */
export class ChangeFilesBody extends FileOptionsBody {
  @IsArray() @ArrayNotEmpty() @ValidateNested({ each: true }) @Type(() => ChangeFileOperationBody) files: ChangeFileOperationBody[];
}

/**
 * `repo.contents.change`: one commit changing files (every contents write route). The gateway has checked write
 * access; repo-service checks it again, and everything else (paths, shas, branches, archived repository).
 */
export class ChangeFilesRequest extends RepoScopedRequest {
  @ValidateNested() @Type(() => ChangeFilesBody) body: ChangeFilesBody;
  /** `[api] DEFAULT_MAX_BLOB_SIZE`: a larger file comes back without content. */
  @IsInt() @Min(0) maxBlobSize: number;
}

/** Gitea's `FileCommitResponse`. */
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

/** Gitea's `FilesResponse`: the commit and each changed path as it is now (null when deleted). */
export interface FilesResponseDto {
  files: (ContentsResponseDto | null)[];
  commit: FileCommitResponseDto;
  verification: PayloadCommitVerificationDto;
}

/** Gitea's `FileResponse` (create and update of one file). */
export interface FileResponseDto {
  content: ContentsResponseDto | null;
  commit: FileCommitResponseDto;
  verification: PayloadCommitVerificationDto;
}

/** Gitea's `FileDeleteResponse`: `content` is always null. */
export interface FileDeleteResponseDto {
  content: null;
  commit: FileCommitResponseDto;
  verification: PayloadCommitVerificationDto;
}

/**
 * `repo.contents.change` reply. `deferred` lists indexes of `files` whose content was too large for a bus message:
 * the gateway fills them in from `commit.sha` over internal HTTP, as for `repo.contents.get`. `created` is true when
 * a file written without a sha did not exist before (`PUT` answers 201 then).
 */
export interface ChangeFilesReply {
  response: FilesResponseDto;
  deferred: number[];
  created: boolean;
}
