import { Inject, Injectable, Logger } from '@nestjs/common';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DomainError, isValidBranchName, type RepoRefDto } from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import {
  branchRef, type CommitSigning, commitTree, fetchBranchesAndTags, initBareRepository, repoStoragePath, resolveBranch,
  setHeadBranch, updateRef, writeBlob, writeFlatTree,
} from '@cairn/git';

/** What locates a repository on disk: the owner's and the repository's names (a `RepoRefDto` will do). */
export type RepoLocation = Pick<RepoRefDto, 'ownerName' | 'name'>;

/** A git identity for commits that repo-service makes itself (the initial commit). */
export interface GitSignature {
  name: string;
  email: string;
}

/** One file of a commit made with {@link RepoStorage.commitFiles}. */
export interface CommitFile {
  /** A plain file name at the root of the tree (no `/`). */
  path: string;
  content: string;
}

/** Names and e-mails reach git's headers: drop what would break them (`<`, `>`, newlines), as Gitea does. */
function gitSafe(s: string): string {
  return s.replace(/[<>\n\r\0]/g, '').trim();
}

/**
 * Bare repositories on disk under `[repository] ROOT`. Every path comes from {@link repoStoragePath}, so no input
 * can point outside the root, and every git command runs with an argument vector.
 */
@Injectable()
export class RepoStorage {
  private readonly logger = new Logger('RepoStorage');

  constructor(@Inject(COMMON_SETTINGS) private readonly settings: CommonSettings) {}

  /** The repository's git directory: `<ROOT>/<owner>/<name>.git`, lower-cased. */
  pathFor(ref: RepoLocation): string {
    return repoStoragePath(this.settings.repoRoot, ref.ownerName, ref.name);
  }

  /** True when the git directory exists. */
  async exists(ref: RepoLocation): Promise<boolean> {
    return stat(this.pathFor(ref)).then(
      () => true,
      () => false,
    );
  }

  /**
   * Creates an empty bare repository whose HEAD names `defaultBranch`. The directory is created exclusively: if it
   * exists already (another creation won the race, or leftovers) this fails with ALREADY_EXISTS and touches nothing.
   * On any other failure what was created is removed again.
   */
  async init(ref: RepoLocation, defaultBranch: string): Promise<string> {
    if (!isValidBranchName(defaultBranch)) throw DomainError.unprocessable(`invalid branch name "${defaultBranch}"`);
    const path = this.pathFor(ref);
    await mkdir(dirname(path), { recursive: true });
    try {
      await mkdir(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
        throw DomainError.alreadyExists('The repository with the same name already exists.');
      }
      throw err;
    }
    try {
      await initBareRepository(path, defaultBranch);
    } catch (err) {
      await this.removePath(path);
      throw err;
    }
    return path;
  }

  /**
   * Fills a new (empty) repository with every branch and tag of another, objects included (a fork's storage): one
   * local `git fetch`, paths from {@link pathFor} only.
   */
  async copyRefsFrom(target: RepoLocation, source: RepoLocation): Promise<void> {
    await fetchBranchesAndTags(this.pathFor(target), this.pathFor(source));
  }

  /**
   * Makes a root commit with the given files on `branch`, which must not exist yet (git plumbing only: no work tree),
   * signed as `signing` says. Returns the commit id.
   */
  async commitFiles(
    ref: RepoLocation,
    branch: string,
    files: CommitFile[],
    message: string,
    signature: GitSignature,
    signing: CommitSigning | null = null,
  ): Promise<string> {
    if (!isValidBranchName(branch)) throw DomainError.unprocessable(`invalid branch name "${branch}"`);
    const gitDir = this.pathFor(ref);
    const entries: { name: string; blob: string }[] = [];
    for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
      if (!/^[^/\0\n\t]+$/.test(file.path) || file.path === '.' || file.path === '..' || file.path === '.git') {
        throw new Error(`invalid file name for a commit: ${JSON.stringify(file.path)}`);
      }
      entries.push({ name: file.path, blob: await writeBlob(gitDir, file.content) });
    }
    const tree = await writeFlatTree(gitDir, entries);
    const who = { name: gitSafe(signature.name) || 'Cairn', email: gitSafe(signature.email) };
    const commit = await commitTree(gitDir, tree, [], `${message}\n`, who, who, signing);
    // Refused if the branch appeared meanwhile.
    if (!(await updateRef(gitDir, branchRef(branch), commit, null))) {
      throw new Error(`branch ${branch} appeared while it was being created`);
    }
    return commit;
  }

  /** True when `refs/heads/<branch>` exists. */
  async branchExists(ref: RepoLocation, branch: string): Promise<boolean> {
    if (!isValidBranchName(branch)) return false;
    return (await resolveBranch(this.pathFor(ref), branch)) !== null;
  }

  /** Points HEAD at `refs/heads/<branch>` (what clones check out). */
  async setHead(ref: RepoLocation, branch: string): Promise<void> {
    if (!isValidBranchName(branch)) throw DomainError.unprocessable(`invalid branch name "${branch}"`);
    await setHeadBranch(this.pathFor(ref), branch);
  }

  /**
   * Moves a repository's storage (rename, or a change of owner name). Fails with ALREADY_EXISTS when the target
   * exists; creates the target owner's directory if needed.
   */
  async rename(from: RepoLocation, to: RepoLocation): Promise<void> {
    const source = this.pathFor(from);
    const target = this.pathFor(to);
    if (source === target) return;
    if (await stat(target).then(() => true, () => false)) {
      throw DomainError.alreadyExists('The repository with the same name already exists.');
    }
    await mkdir(dirname(target), { recursive: true });
    await rename(source, target);
  }

  /** Removes a repository's storage (no error if it is already gone). */
  async remove(ref: RepoLocation): Promise<void> {
    await this.removePath(this.pathFor(ref));
  }

  private async removePath(path: string): Promise<void> {
    try {
      await rm(path, { recursive: true, force: true });
    } catch (err) {
      this.logger.error(`could not remove ${path}: ${(err as Error).message}`);
      throw err;
    }
  }
}
