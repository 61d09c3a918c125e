/**
 * Test support (integration tests and benchmarks only): builds real repositories with the `git` command in a temp
 * directory — commits with controlled dates, files, directories, symlinks, submodule entries, tags, merges — and
 * publishes them as bare repositories laid out like repo-service storage (`<root>/<owner>/<name>.git`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoStoragePath } from '@cairn/git';

/** One file change of a commit: content, a symlink, an executable, or `null` to delete. */
export type FileSpec = string | Buffer | { symlink: string } | { exec: string } | null;

export interface CommitSpec {
  message: string;
  files?: Record<string, FileSpec>;
  /** Committer date: RFC 3339 or unix seconds. The author date defaults to it. */
  date: string | number;
  authorDate?: string | number;
  author?: { name: string; email: string };
  committer?: { name: string; email: string };
}

function gitDate(d: string | number): string {
  return typeof d === 'number' ? `@${d} +0000` : d;
}

/** A fresh temp directory (removed by {@link removeDir}). */
export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A work tree whose history is pushed to a bare repository under a storage root. */
export class GitFixture {
  readonly work: string;
  readonly bare: string;

  constructor(
    readonly root: string,
    readonly owner: string,
    readonly name: string,
    defaultBranch = 'main',
  ) {
    this.work = path.join(root, '.work', `${owner}-${name}`);
    this.bare = repoStoragePath(root, owner, name);
    mkdirSync(this.work, { recursive: true });
    mkdirSync(path.dirname(this.bare), { recursive: true });
    execFileSync('git', ['init', '-q', '--bare', '-b', defaultBranch, this.bare]);
    this.git('init', '-q', '-b', defaultBranch);
    this.git('config', 'user.name', 'Fixture');
    this.git('config', 'user.email', 'fixture@example.com');
    this.git('config', 'core.autocrlf', 'false');
    this.git('remote', 'add', 'origin', this.bare);
  }

  /** Runs git in the work tree and returns trimmed stdout. */
  git(...args: string[]): string {
    return this.gitEnv({}, ...args);
  }

  gitEnv(env: Record<string, string>, ...args: string[]): string {
    return execFileSync('git', args, {
      cwd: this.work,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...env },
      maxBuffer: 256 * 1024 * 1024,
    })
      .toString('utf8')
      .trim();
  }

  /** Writes the files, commits them all and returns the new commit id. */
  commit(spec: CommitSpec): string {
    for (const [file, content] of Object.entries(spec.files ?? {})) {
      const full = path.join(this.work, file);
      mkdirSync(path.dirname(full), { recursive: true });
      rmSync(full, { force: true, recursive: true });
      if (content === null) {
        this.git('rm', '-q', '--cached', '--ignore-unmatch', '--', file);
        continue;
      }
      if (typeof content === 'object' && !Buffer.isBuffer(content) && 'symlink' in content) {
        symlinkSync(content.symlink, full);
      } else if (typeof content === 'object' && !Buffer.isBuffer(content) && 'exec' in content) {
        writeFileSync(full, content.exec);
        chmodSync(full, 0o755);
      } else {
        writeFileSync(full, content as string | Buffer);
      }
      this.git('add', '-f', '--', file);
    }
    const author = spec.author ?? { name: 'Fixture', email: 'fixture@example.com' };
    const committer = spec.committer ?? author;
    this.gitEnv(
      {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_AUTHOR_DATE: gitDate(spec.authorDate ?? spec.date),
        GIT_COMMITTER_NAME: committer.name,
        GIT_COMMITTER_EMAIL: committer.email,
        GIT_COMMITTER_DATE: gitDate(spec.date),
      },
      'commit',
      '-q',
      '--allow-empty',
      '--no-verify',
      '-m',
      spec.message,
    );
    return this.git('rev-parse', 'HEAD');
  }

  /** Adds a submodule entry (gitlink + .gitmodules) without cloning anything. */
  addSubmoduleEntry(subPath: string, url: string, commitId: string): void {
    const modules = path.join(this.work, '.gitmodules');
    writeFileSync(modules, `[submodule "${subPath}"]\n\tpath = ${subPath}\n\turl = ${url}\n`);
    this.git('add', '.gitmodules');
    this.git('update-index', '--add', '--cacheinfo', `160000,${commitId},${subPath}`);
  }

  /** Removes a file from the work tree only (used after submodule entries). */
  unlink(file: string): void {
    unlinkSync(path.join(this.work, file));
  }

  /** Pushes every branch and tag to the bare repository. */
  publish(): void {
    this.git('push', '-q', '--force', 'origin', 'refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*');
  }

  /** Resolves a revision in the bare repository. */
  revParse(rev: string): string {
    return execFileSync('git', [`--git-dir=${this.bare}`, 'rev-parse', '--verify', rev]).toString().trim();
  }
}
