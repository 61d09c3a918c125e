import { Injectable } from '@nestjs/common';
import type { ListRefNamesRequest, RefNamesReply } from '@cairn/contracts';
import { runGitChecked } from '@cairn/platform';
import { GitReadContext } from '../git/git-read-context.js';

/** Refs listed at most (about 200,000 names): a page must not read an unbounded list. */
const REF_LIST_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Branch and tag names for the web UI's ref switcher: one `git for-each-ref` for both kinds (one process per page
 * view), sorted by name and cut at the caller's limit per kind.
 */
@Injectable()
export class RefNamesService {
  constructor(private readonly git: GitReadContext) {}

  async list(req: ListRefNamesRequest): Promise<RefNamesReply> {
    if (req.repo.empty) return { branches: [], tags: [], truncated: false };
    const { stdout } = await runGitChecked(
      this.git.pathOf(req.repo),
      ['for-each-ref', '--sort=refname', '--format=%(refname)', 'refs/heads/', 'refs/tags/'],
      { maxStdoutBytes: REF_LIST_MAX_BYTES },
    );
    const branches: string[] = [];
    const tags: string[] = [];
    for (const line of stdout.toString('utf8').split('\n')) {
      if (line.startsWith('refs/heads/')) branches.push(line.slice('refs/heads/'.length));
      else if (line.startsWith('refs/tags/')) tags.push(line.slice('refs/tags/'.length));
    }
    return {
      branches: branches.slice(0, req.limit),
      tags: tags.slice(0, req.limit),
      truncated: branches.length > req.limit || tags.length > req.limit,
    };
  }
}
