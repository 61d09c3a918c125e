// Benchmark: `/commits?since&until` logic (CommitsService.list: validation, ref resolution through the pool, the
// page and its exact total, mapping) on a generated 20,000-commit repository, against the floor: the equivalent
// single `git log --since --until -n <page>` command. Cold = the total is not cached yet (one `git rev-list` walk for
// the total and the page's ids + one `git log --no-walk`); warm = the same filter again (cached total: one `git log`).
// The repository gets its commit-graph the way production does after a push (`maintainCommitGraph`), and the floor
// runs on that same repository. Run after `npx tsc -b tsconfig.build.json`: `node bench/commits-range.bench.mjs`.
import 'reflect-metadata';
import { CatFilePool } from '../apps/repo-service/dist/git-core/git/cat-file-pool.js';
import { GitReadContext } from '../apps/repo-service/dist/git-core/git/git-read-context.js';
import { CommitUserDirectory } from '../apps/repo-service/dist/code/commits/commit-users.js';
import { CommitsService } from '../apps/repo-service/dist/code/commits/commits.service.js';
import { maintainCommitGraph } from '../apps/repo-service/dist/git-core/git/commit-graph.js';
import { historyCountCache } from '../apps/repo-service/dist/git-core/git/history.js';
import { fastImportRepo, measureInTurns, removeRoot, report, run, tempRoot } from './git-bench-support.mjs';
import { benchVerifier } from './verifier-bench-support.mjs';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 20_000);
const START = 1_700_000_000; // commits one minute apart from here
const FILES = Array.from({ length: 500 }, (_, i) => `pkg${i % 25}/f${i}.txt`);

/** No identity-service in the benchmark: nobody owns the commit e-mails (the lookup is one bus call in production). */
class NoUsers extends CommitUserDirectory {
  async byEmails() {
    return new Map();
  }
}

const iso = (s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
const root = tempRoot('cairn-bench-commits-');
try {
  const t0 = Date.now();
  const bare = fastImportRepo({
    root,
    owner: 'bench',
    name: 'history',
    commits: COMMITS,
    startSeconds: START,
    files: FILES,
    content: (i, f) => `${f} ${i}\n`,
  });
  console.log(`generated ${COMMITS} commits with git fast-import in ${Date.now() - t0} ms`);
  // What production does after a push (the generated repository is the "push"): commit-graph with Bloom filters.
  // `git gc` in the generator already wrote a graph without filters; this rewrites it with them.
  const t1 = Date.now();
  const mode = await maintainCommitGraph(bare);
  console.log(`commit-graph maintenance (${mode}) in ${Date.now() - t1} ms`);

  const pool = new CatFilePool({ maxProcesses: 8, idleTimeoutMs: 60_000 });
  const service = new CommitsService(new GitReadContext(pool, root, 'http://localhost:3000/', 50), new NoUsers(), benchVerifier({ pool, root }));
  const repo = { id: 1, ownerId: 1, ownerName: 'bench', name: 'history', defaultBranch: 'main' };

  // A window of 1,000 commits in the middle of history, and one near the start (the walk goes deep).
  const windows = [
    { label: 'middle window (1,000 commits)', since: START + 9_000 * 60, until: START + 9_999 * 60 },
    { label: 'old window (1,000 commits)', since: START + 1_000 * 60, until: START + 1_999 * 60 },
  ];
  for (const w of windows) {
    for (const opts of [
      { name: 'stat+files', options: { stat: true, verification: true, files: true }, diff: ['--raw', '--numstat'] },
      { name: 'plain', options: { stat: false, verification: false, files: false }, diff: [] },
    ]) {
      const req = {
        actor: null,
        repo,
        access: 'read',
        filter: { since: iso(w.since), until: iso(w.until), limit: 30 },
        options: opts.options,
      };
      const check = await service.list(req);
      if (check.total !== 1000 || check.items.length !== 30) throw new Error(`unexpected page: ${check.total}`);
      // Cold: the total of this filter not cached yet. Warm: the same request again (cached total). The three run
      // in turns so that they see the same machine load.
      const m = await measureInTurns(
        {
          cold: () => {
            historyCountCache.clear();
            return service.list(req);
          },
          warm: () => service.list(req),
          floor: () =>
            run('git', [
              `--git-dir=${bare}`,
              'log',
              `--since=${iso(w.since)}`,
              `--until=${iso(w.until)}`,
              '--max-count=30',
              ...opts.diff,
              'main',
            ]),
        },
        { warmup: 3, runs: 25 },
      );
      report(`${w.label}, ${opts.name}, cold (total not cached)`, m.cold, m.floor);
      report(`${w.label}, ${opts.name}, warm (cached total)`, m.warm, m.floor);
    }
  }
  pool.close();
} finally {
  removeRoot(root);
}
