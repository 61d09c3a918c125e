import { Injectable } from '@nestjs/common';
import { isObjectId, type CommitSummariesRequest, type CommitSummaryDto } from '@cairn/contracts';
import { parseCommitObject } from '../git/commit-object.js';
import { GitReadContext } from '../git/git-read-context.js';

/**
 * Commit summaries by id from the pooled `cat-file` process (one pipelined round trip for all of them, no `git log`):
 * what the web tree shows beside each entry, whose last-commit ids the contents listing gives (from the last-commit
 * cache).
 */
@Injectable()
export class CommitSummariesService {
  constructor(private readonly git: GitReadContext) {}

  async summaries(req: CommitSummariesRequest): Promise<CommitSummaryDto[]> {
    const shas = [...new Set(req.shas.filter((s) => isObjectId(s)))];
    if (!shas.length || req.repo.empty) return [];
    const repoPath = this.git.pathOf(req.repo);
    const objects = await this.git.pool.run(repoPath, shas.map((object) => ({ op: 'contents' as const, object })));
    const out: CommitSummaryDto[] = [];
    shas.forEach((sha, i) => {
      const o = objects[i];
      if (o?.type !== 'commit' || !o.data) return;
      const c = parseCommitObject(o.data);
      const nl = c.message.indexOf('\n');
      out.push({
        sha,
        title: (nl < 0 ? c.message : c.message.slice(0, nl)).trim(),
        authorName: c.author.name,
        authorEmail: c.author.email,
        authorDate: c.author.date,
      });
    });
    return out;
  }
}
