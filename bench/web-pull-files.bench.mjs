// Web UI benchmark: the server-rendered Files changed page of a pull request with 100 changed files and 5,000
// changed lines (unified and split) against the JSON API calls that feed it, measured in turns in the same run
// (ratio = page / API; target ≤ 2). Nothing asserts on time.
//
//   npm run build && node bench/web-pull-files.bench.mjs
//
// The suite runs from dist/ on infrastructure of its own (NATS server, database, Redis prefix). The repository is made
// with git in a scratch work tree and pushed over HTTP like any push: `main` with 100 files of 120 lines, and a
// branch changing 25 lines of each (5 hunks of 5 lines: 25 removed + 25 added = 50 changed lines a file), and a
// second branch changing the same lines differently (a second pull request, first viewed after the first). The API
// floor is what the page asks for, in the API's shape, side by side as the page asks: the pull request, its commit
// count, its reviews and its changed files (two pages of 50). Pages and calls are anonymous reads of a public
// repository. Knobs: BENCH_RUNS (default 30).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchGitEnv, measureInTurns, report } from './git-bench-support.mjs';
import { benchRun, postJson, say, startSuiteWithAdmin } from './suite-bench-support.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const FILES = 100;
const LINES = 120;

const run = benchRun('cairn-bench-pull-files', { keep: Boolean(process.env.CAIRN_BENCH_KEEP) });
try {
  const { suite, adminName, headers } = await startSuiteWithAdmin(run, ['write:repository', 'write:user']);
  const repo = 'review';
  await postJson(`${suite.baseUrl}/api/v1/user/repos`, headers.authorization, { name: repo });

  const work = path.join(run.dataDir, 'work');
  mkdirSync(work, { recursive: true });
  const git = (...args) => execFileSync('git', args, { cwd: work, env: benchGitEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  const write = (changed, by = '') => {
    for (let f = 0; f < FILES; f++) {
      const lines = Array.from({ length: LINES }, (_, i) => {
        // Lines 10–14, 30–34, …, 90–94 of each file change on the branch: five hunks of five lines.
        const edited = changed && (i % 20) >= 10 && (i % 20) < 15 && i < 100;
        return edited ? `export const value${i} = compute(${i}, "changed in file ${f}${by}");` : `export const value${i} = ${i}; // file ${f}`;
      });
      const file = path.join(work, `src/module${Math.floor(f / 10)}/file${f}.ts`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `${lines.join('\n')}\n`);
    }
  };
  git('init', '-q', '-b', 'main');
  write(false);
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  git('checkout', '-q', '-b', 'feature');
  write(true);
  git('add', '-A');
  git('commit', '-q', '-m', 'change 100 files');
  // A second pull request with other blobs: its first view is not in the highlight cache, but the gateway has
  // highlighted before (as a running server has), unlike the very first view after the suite starts.
  git('checkout', '-q', '-b', 'feature2', 'main');
  write(true, ' again');
  git('add', '-A');
  git('commit', '-q', '-m', 'change 100 files again');
  const pushUrl = new URL(`${suite.baseUrl}/${adminName}/${repo}.git`);
  pushUrl.username = adminName;
  pushUrl.password = headers.authorization.replace(/^token /, '');
  say('pushing the repository');
  git('push', '-q', pushUrl.toString(), 'main', 'feature', 'feature2');
  const pull = await postJson(`${suite.baseUrl}/api/v1/repos/${adminName}/${repo}/pulls`, headers.authorization, {
    head: 'feature', base: 'main', title: 'Change everything',
  });
  const second = await postJson(`${suite.baseUrl}/api/v1/repos/${adminName}/${repo}/pulls`, headers.authorization, {
    head: 'feature2', base: 'main', title: 'Change everything again',
  });

  const get = async (url, type) => {
    const res = await fetch(`${suite.baseUrl}${url}`);
    const body = await res.text();
    if (res.status !== 200 || !(res.headers.get('content-type') ?? '').includes(type)) {
      throw new Error(`GET ${url} answered ${res.status} ${res.headers.get('content-type')}: ${body.slice(0, 200)}`);
    }
    return body;
  };
  const pageOf = (n) => `/${adminName}/${repo}/pulls/${n}/files`;
  const apiOf = (n) => `/api/v1/repos/${adminName}/${repo}/pulls/${n}`;
  const page = pageOf(pull.number);
  const api = apiOf(pull.number);
  const floorOf = (api) => Promise.all([
    get(api, 'application/json'),
    get(`${api}/commits?limit=1`, 'application/json'),
    get(`${api}/reviews?limit=50`, 'application/json'),
    get(`${api}/files?limit=50&page=1`, 'application/json'),
    get(`${api}/files?limit=50&page=2`, 'application/json'),
  ]);
  const floor = () => floorOf(api);
  // The first view highlights every file (the cache is keyed by blob pair); later views reuse it. One sample each.
  const timed = async (fn) => {
    const t = process.hrtime.bigint();
    const out = await fn();
    return { out, ms: Number(process.hrtime.bigint() - t) / 1e6 };
  };
  const first = await timed(() => get(page, 'text/html'));
  const firstFloor = await timed(floor);
  const again = await timed(() => get(pageOf(second.number), 'text/html'));
  const againFloor = await timed(() => floorOf(apiOf(second.number)));
  // Sanity: the pages show what is measured (100 files, 2,500 added and 2,500 removed lines).
  for (const shown of [first.out, again.out]) {
    const count = (re) => (shown.match(re) ?? []).length;
    if (count(/<details class="card diff-file"/g) !== FILES) throw new Error(`the page shows ${count(/<details class="card diff-file"/g)} files, not ${FILES}`);
    if (count(/<tr class="add"/g) !== 2500 || count(/<tr class="del"/g) !== 2500) throw new Error('the page does not show 5,000 changed lines');
  }
  const html = first.out;
  const files = JSON.parse(await get(`${api}/files?limit=50`, 'application/json'));
  if (files.length !== 50 || files.reduce((n, f) => n + f.changes, 0) !== 2500) throw new Error('the API does not list the changed files');
  console.log(`Files changed page: ${(html.length / 1024).toFixed(0)} KiB of HTML for ${FILES} files / 5,000 changed lines`);
  console.log(`first view (highlights every file; one sample) ${first.ms.toFixed(0)} ms, API calls ${firstFloor.ms.toFixed(0)} ms: ratio = ${(first.ms / firstFloor.ms).toFixed(2)}`);
  console.log(`first view of a second pull request (highlights every file, the gateway has highlighted before; one sample) ${again.ms.toFixed(0)} ms, API calls ${againFloor.ms.toFixed(0)} ms: ratio = ${(again.ms / againFloor.ms).toFixed(2)}`);

  say('measuring');
  const m = await measureInTurns(
    {
      unified: () => get(page, 'text/html'),
      split: () => get(`${page}?style=split`, 'text/html'),
      api: floor,
    },
    { warmup: 3, runs: RUNS },
  );
  report('Files changed (unified) vs the API calls feeding it', m.unified, m.api);
  report('Files changed (split) vs the API calls feeding it', m.split, m.api);
} finally {
  await run.cleanup();
}
