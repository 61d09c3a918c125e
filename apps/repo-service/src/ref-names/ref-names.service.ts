import { Injectable } from '@nestjs/common';
import type { ListRefNamesRequest, RefNamesReply } from '@cairn/contracts';
import { runGitChecked } from '@cairn/platform';
import { GitReadContext } from '../git/git-read-context.js';

/**
 * Branch and tag names for the web UI's ref switcher: one `git for-each-ref` per kind, sorted by name and cut at
 * the caller's limit (one more is read to tell whether the list was cut).
 */
@Injectable()
export class RefNamesService {
  constructor(private readonly git: GitReadContext) {}

  async list(req: ListRefNamesRequest): Promise<RefNamesReply> {
    if (req.repo.empty) return { branches: [], tags: [], truncated: false };
    const repoPath = this.git.pathOf(req.repo);
    const [branches, tags] = await Promise.all([
      this.names(repoPath, 'refs/heads/', req.limit),
      this.names(repoPath, 'refs/tags/', req.limit),
    ]);
    return {
      branches: branches.slice(0, req.limit),
      tags: tags.slice(0, req.limit),
      truncated: branches.length > req.limit || tags.length > req.limit,
    };
  }

  private async names(repoPath: string, prefix: string, limit: number): Promise<string[]> {
    const { stdout } = await runGitChecked(repoPath, [
      'for-each-ref',
      `--count=${limit + 1}`,
      '--sort=refname',
      '--format=%(refname)',
      prefix,
    ]);
    return stdout
      .toString('utf8')
      .split('\n')
      .filter((line) => line.startsWith(prefix))
      .map((line) => line.slice(prefix.length));
  }
}
