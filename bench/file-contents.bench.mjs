// Benchmark: batch file contents (30 files) through repo-service's ContentsService — pooled cat-file process,
// one last-commit walk — against the floor: the same 30 `<commit>:<path>` lines piped through one
// `git cat-file --batch` by hand. The repository gets its commit-graph the way production does after a push
// (`maintainCommitGraph`); the floors run on the same repository. The "after a push" row runs, before each request,
// the background work production runs after a push (commit-graph, then the last-commit warm-up of the pushed tip),
// untimed, then times the request.
// Run after `npx tsc -b tsconfig.build.json`: `node bench/file-contents.bench.mjs`.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { CatFilePool } from '../apps/repo-service/dist/git-core/git/cat-file-pool.js';
import { GitReadContext } from '../apps/repo-service/dist/git-core/git/git-read-context.js';
import { gitSpawnStats } from '@cairn/git';
import { lastCommitCache } from '../apps/repo-service/dist/git-core/git/last-commits.js';
import { ContentsService } from '../apps/repo-service/dist/code/contents/contents.service.js';
import { maintainCommitGraph } from '../apps/repo-service/dist/git-core/git/commit-graph.js';
import { CommitGraphMaintainer } from '../apps/repo-service/dist/git-core/git/commit-graph-maintainer.js';
import { fastImportRepo, measureInTurns, removeRoot, report, run, tempRoot } from './git-bench-support.mjs';

// The warm-up logs each run at debug level; production logs at the configured level.
Logger.overrideLogger(['log', 'warn', 'error']);
const FILES = Array.from({ length: 200 }, (_, i) => `src/module${Math.floor(i / 20)}/file${i}.ts`);
const COMMITS = Number(process.env.BENCH_COMMITS ?? 2000);
const root = tempRoot('cairn-bench-fc-');
try {
  const bare = fastImportRepo({
    root,
    owner: 'bench',
    name: 'files',
    commits: COMMITS,
    startSeconds: 1_700_000_000,
    files: FILES,
    content: (i, f) => `// ${f} at commit ${i}\n${'export const x = 1;\n'.repeat(200)}`,
  });
  // What production does after a push (the generated repository is the "push"): commit-graph with Bloom filters.
  const mode = await maintainCommitGraph(bare);
  // 30 files spread over the tree: their last commits are spread over the last ~200 commits.
  const requested = Array.from({ length: 30 }, (_, i) => FILES[(i * 7) % FILES.length]);
  const commit = (await run('git', [`--git-dir=${bare}`, 'rev-parse', 'main'])).toString().trim();

  const pool = new CatFilePool({ maxProcesses: 8, idleTimeoutMs: 60_000 });
  const service = new ContentsService(new GitReadContext(pool, root, 'http://localhost:3000/', 50));
  const repo = { id: 1, ownerId: 1, ownerName: 'bench', name: 'files', defaultBranch: 'main' };
  const request = {
    actor: null,
    repo,
    access: 'read',
    files: requested,
    limits: { pagingNum: 30, maxBlobSize: 10 * 1024 * 1024, maxResponseSize: 100 * 1024 * 1024 },
  };
  const check = await service.fileContents(request);
  if (check.items.filter(Boolean).length !== 30) throw new Error('expected 30 entries');

  // Cold: no cached last commits (every request walks history once). Warm: the same files at the same commit again.
  // All four run in turns, so that they see the same machine load.
  const lines = requested.map((p) => `${commit}:${p}\n`).join('');
  const before = { total: gitSpawnStats.total, catFile: gitSpawnStats.count('cat-file') };
  let coldRuns = 0;
  const m = await measureInTurns({
    cold: () => {
      coldRuns += 1;
      lastCommitCache.clear();
      return service.fileContents(request);
    },
    warm: () => service.fileContents(request),
    floor: () => run('git', [`--git-dir=${bare}`, 'cat-file', '--batch'], lines),
    // A stricter floor: the same lines through an already running cat-file process (pure object reads).
    warmFloor: () => pool.run(bare, requested.map((p) => ({ op: 'contents', object: `${commit}:${p}` }))),
  });
  // Warm requests and the floors start no git process through the service's spawner: all of these are the cold ones.
  const spawnsPerRequest = (gitSpawnStats.total - before.total) / coldRuns;
  const catFileSpawned = gitSpawnStats.count('cat-file') - before.catFile;

  // A repository's very first request in a process: no cat-file process yet either (the pool starts one).
  const first = await measureInTurns({
    first: async () => {
      lastCommitCache.clear();
      const fresh = new CatFilePool({ maxProcesses: 1, idleTimeoutMs: 60_000 });
      try {
        return await new ContentsService(new GitReadContext(fresh, root, 'http://localhost:3000/', 50)).fileContents(request);
      } finally {
        fresh.close();
      }
    },
    floor: () => run('git', [`--git-dir=${bare}`, 'cat-file', '--batch'], lines),
  });

  // After a push: the maintainer production uses (default settings) runs to completion first — it is background work,
  // not part of the request — then the request is timed, in turns with the floor.
  const maintainer = new CommitGraphMaintainer();
  const pushed = [{ ref: 'refs/heads/main', new: commit }];
  const afterPush = { ours: [], floor: [], warmUp: [] };
  const timed = async (fn) => {
    const t = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  for (let i = 0; i < 45; i++) {
    lastCommitCache.clear();
    const warmUp = await timed(() => maintainer.schedule(bare, pushed));
    const ours = await timed(() => service.fileContents(request));
    const floor = await timed(() => run('git', [`--git-dir=${bare}`, 'cat-file', '--batch'], lines));
    if (i < 5) continue;
    afterPush.ours.push(ours);
    afterPush.floor.push(floor);
    afterPush.warmUp.push(warmUp);
  }
  if (lastCommitCache.size < FILES.length) throw new Error('the warm-up did not fill the last-commit cache');
  await maintainer.close();
  const stats = (xs) => {
    const sorted = xs.sort((a, b) => a - b);
    return { median: sorted[Math.floor(sorted.length / 2)], p90: sorted[Math.floor(sorted.length * 0.9)] };
  };

  console.log(`file-contents, 30 files, repository of ${COMMITS} commits / ${FILES.length} files (commit-graph: ${mode})`);
  report('first (new cat-file process + history walk) vs one-shot', first.first, first.floor);
  report('cold (history walk) vs one-shot `git cat-file --batch`', m.cold, m.floor);
  report('warm (cached last commits) vs one-shot `git cat-file --batch`', m.warm, m.floor);
  report('warm vs the same reads on a running cat-file', m.warm, m.warmFloor);
  report('after a push (background warm-up done, then the request)', stats(afterPush.ours), stats(afterPush.floor));
  const w = stats(afterPush.warmUp);
  console.log(
    `background work after a push (graph write + warm-up of ${FILES.length} files and their directories): median ${w.median.toFixed(2)} ms (p90 ${w.p90.toFixed(2)})`,
  );
  console.log(`git processes per cold request: ${spawnsPerRequest.toFixed(2)} (new cat-file processes: ${catFileSpawned})`);
  pool.close();
} finally {
  removeRoot(root);
}
