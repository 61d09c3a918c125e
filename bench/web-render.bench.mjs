// Web UI render benchmark: the server-rendered repository home and a 50-commit list page against the JSON API
// call that feeds each, measured in turns in the same run (ratio = page / API; target ≤ 2), plus the total size
// of the web UI's JavaScript and CSS (target < 100 KB). Nothing asserts on time.
//
//   npm run build && node bench/web-render.bench.mjs
//
// The suite runs from dist/ on infrastructure of its own (NATS server, database, Redis prefix). The repository
// (120 commits, a README and 40 files, generated with git fast-import) is pushed over HTTP like any push. Pages and
// API calls are anonymous reads of a public repository. Knobs: BENCH_RUNS (default 40).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../scripts/suite.mjs';
import { benchGitEnv, fastImportRepo, measureInTurns, report } from './git-bench-support.mjs';
import { benchRun, postJson, say, startSuiteWithAdmin } from './suite-bench-support.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const STATIC_DIR = path.join(REPO_ROOT, 'apps/gateway/web/static');

const run = benchRun('cairn-bench-web', { keep: Boolean(process.env.CAIRN_BENCH_KEEP) });
try {
  const { suite, adminName, headers } = await startSuiteWithAdmin(run, ['write:repository', 'write:user']);
  const repo = 'render';
  await postJson(`${suite.baseUrl}/api/v1/user/repos`, headers.authorization, { name: repo });

  const files = ['README.md', ...Array.from({ length: 40 }, (_, i) => `src/part${Math.floor(i / 10)}/file${i}.ts`)];
  const readme = `# Render bench\n\n${'Some *Markdown* with a [link](docs/a.md) and `code`.\n\n'.repeat(40)}`;
  const bare = fastImportRepo({
    root: path.join(run.dataDir, 'src'),
    owner: adminName,
    name: repo,
    commits: 120,
    startSeconds: 1_700_000_000,
    files,
    content: (i, f) => (f === 'README.md' ? readme : `// ${f} at ${i}\n${'export const x = 1;\n'.repeat(50)}`),
  });
  const token = headers.authorization.replace(/^token /, '');
  const pushUrl = new URL(`${suite.baseUrl}/${adminName}/${repo}.git`);
  pushUrl.username = adminName;
  pushUrl.password = token;
  say('pushing the repository');
  execFileSync('git', [`--git-dir=${bare}`, 'push', '-q', pushUrl.toString(), 'main'], { env: benchGitEnv(), stdio: 'ignore' });

  const get = async (url, type) => {
    const res = await fetch(`${suite.baseUrl}${url}`);
    const body = await res.text();
    if (res.status !== 200 || !(res.headers.get('content-type') ?? '').includes(type)) {
      throw new Error(`GET ${url} answered ${res.status} ${res.headers.get('content-type')}: ${body.slice(0, 200)}`);
    }
    return body;
  };
  // Sanity: the pages show what is measured (README rendered, 50 commit rows).
  const home = await get(`/${adminName}/${repo}`, 'text/html');
  if (!home.includes('<h1>Render bench</h1>')) throw new Error('the home page has no rendered README');
  const list = await get(`/${adminName}/${repo}/commits/branch/main`, 'text/html');
  if ((list.match(/class="commit-row"/g) ?? []).length !== 50) throw new Error('the commit page does not list 50 commits');

  const api = `/api/v1/repos/${adminName}/${repo}`;
  say('measuring');
  const m = await measureInTurns(
    {
      home: () => get(`/${adminName}/${repo}`, 'text/html'),
      contents: () => get(`${api}/contents?ref=main`, 'application/json'),
      commits: () => get(`/${adminName}/${repo}/commits/branch/main`, 'text/html'),
      commitsApi: () => get(`${api}/commits?sha=main&limit=50&stat=false&files=false&verification=true`, 'application/json'),
    },
    { warmup: 5, runs: RUNS },
  );
  report('repository home page vs GET …/contents (floor)', m.home, m.contents);
  report('50-commit list page vs GET …/commits?limit=50 (floor)', m.commits, m.commitsApi);

  const assets = readdirSync(STATIC_DIR).filter((f) => /\.(js|css)$/.test(f));
  const bytes = assets.reduce((n, f) => n + statSync(path.join(STATIC_DIR, f)).size, 0);
  console.log(`web UI JS+CSS: ${assets.join(', ')} = ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB; budget 100 KB)`);
} finally {
  await run.cleanup();
}
