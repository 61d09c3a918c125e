import { Inject, Injectable, Logger } from '@nestjs/common';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DomainError, isValidBranchName, type RepoRefDto } from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import {
  branchRef, type CommitSigning, commitTree, fetchBranchesAndTags, initBareRepository, repoStoragePath, resolveBranch,
  setHeadBranch, updateRef, writeBlob, writeFlatTree,
} from '@cairn/git';

export type RepoLocation = Pick<RepoRefDto, 'ownerName' | 'name'>;

export interface GitSignature {
  name: string;
  email: string;
}

export interface CommitFile {
  /** No `/`. */
  path: string;
  content: string;
}

/** Names and e-mails reach git's headers: drop `<`, `>` and newlines, as Gitea does. */
function gitSafe(s: string): string {
  return s.replace(/[<>\n\r\0]/g, '').trim();
}

/** Every path comes from {@link repoStoragePath}, so no input can point outside `[repository] ROOT`. */
@Injectable()
export class RepoStorage {
  private readonly logger = new Logger('RepoStorage');

  constructor(@Inject(COMMON_SETTINGS) private readonly settings: CommonSettings) {}

  /** Lower-cased. */
  pathFor(ref: RepoLocation): string {
    return repoStoragePath(this.settings.repoRoot, ref.ownerName, ref.name);
  }

  async exists(ref: RepoLocation): Promise<boolean> {
    return stat(this.pathFor(ref)).then(
      () => true,
      () => false,
    );
  }

  /** Exclusive: an existing directory fails with ALREADY_EXISTS untouched; other failures clean up. */
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

  /** A fork's storage: one local `git fetch`. */
  async copyRefsFrom(target: RepoLocation, source: RepoLocation): Promise<void> {
    await fetchBranchesAndTags(this.pathFor(target), this.pathFor(source));
  }

  /** Plumbing only (no work tree); `branch` must not exist yet. */
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
    if (!(await updateRef(gitDir, branchRef(branch), commit, null))) {
      throw new Error(`branch ${branch} appeared while it was being created`);
    }
    return commit;
  }

  async branchExists(ref: RepoLocation, branch: string): Promise<boolean> {
    if (!isValidBranchName(branch)) return false;
    return (await resolveBranch(this.pathFor(ref), branch)) !== null;
  }

  /** What clones check out. */
  async setHead(ref: RepoLocation, branch: string): Promise<void> {
    if (!isValidBranchName(branch)) throw DomainError.unprocessable(`invalid branch name "${branch}"`);
    await setHeadBranch(this.pathFor(ref), branch);
  }

  /** ALREADY_EXISTS when the target exists. */
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
