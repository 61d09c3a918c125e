// Web UI code pages benchmark (issue 22): measured in turns in the same run against floors, ratio = page / floor.
//   - the tree page of a 200-entry folder, with each entry's last commit, on a 20,000-commit repository, against
//     Cairn's own `POST /api/v1/repos/{o}/{r}/file-contents` for the same 200 paths (target ≤ 1.5);
//   - the file view of a 2,000-line TypeScript file against the raw endpoint plus highlighting the same text alone
//     (the gateway's `highlightLines`, in this process; target ≤ 2).
// Nothing asserts on time.
//
//   npm run build && node bench/web-code.bench.mjs
//
// The suite runs from dist/ on infrastructure of its own (NATS server, database, Redis prefix), `[api]
// DEFAULT_PAGING_NUM = 200` so that one /file-contents call answers all 200 paths. The repository (generated with git
// fast-import: every commit changes one file) is pushed over HTTP like any push; the measured requests are anonymous
// reads of the public repository, after a warm-up (the last-commit cache is what production keeps warm after a push).
// Knobs: BENCH_COMMITS (default 20000), BENCH_RUNS (default 30).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { REPO_ROOT } from '../scripts/suite.mjs';
import { benchGitEnv, fastImportRepo, measureInTurns, report } from './git-bench-support.mjs';
import {
  basicAuth, benchRun, createSiteAdmin, postJson, say, scratchDatabase, startBenchSuite, startNatsServer,
} from './suite-bench-support.mjs';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const FOLDER_ENTRIES = 200;
const BIG_FILE_LINES = 2_000;

const { highlightLines } = await import(path.join(REPO_ROOT, 'apps/gateway/dist/web/repo/highlight.js'));

const run = benchRun('cairn-bench-web-code', { keep: Boolean(process.env.CAIRN_BENCH_KEEP) });
try {
  const natsUrl = await startNatsServer(run);
  const databaseUrl = await scratchDatabase(run, `cairn_bench_${run.id}`);
  say('starting the suite');
  const suite = await startBenchSuite(run, {
    databaseUrl,
    natsUrl,
    queuePrefix: `cairn-bench-${run.id}`,
    env: {
      RUN_MODE: 'prod',
      CAIRN__SECURITY__SECRET_KEY: randomBytes(24).toString('hex'),
      CAIRN__SECURITY__INTERNAL_TOKEN: randomBytes(24).toString('hex'),
      CAIRN__API__DEFAULT_PAGING_NUM: String(FOLDER_ENTRIES),
    },
  });
  const adminName = `bench-admin-${run.id}`;
  const adminPw = `Pw-${randomBytes(9).toString('hex')}`;
  await createSiteAdmin(suite, adminName, adminPw);
  const adminBasic = basicAuth(adminName, adminPw);
  const repo = 'code';
  await postJson(`${suite.baseUrl}/api/v1/user/repos`, adminBasic, { name: repo });

  const folder = Array.from({ length: FOLDER_ENTRIES }, (_, i) => `dir/entry${String(i).padStart(3, '0')}.ts`);
  const big = 'src/big.ts';
  const bigText = Array.from({ length: BIG_FILE_LINES }, (_, i) => `export const value${i} = { id: ${i}, name: 'item ${i}', on: ${i % 2 === 0} };`).join('\n');
  const files = ['README.md', big, ...folder];
  say(`generating ${COMMITS} commits`);
  const bare = fastImportRepo({
    root: path.join(run.dataDir, 'src'),
    owner: adminName,
    name: repo,
    commits: COMMITS,
    startSeconds: 1_600_000_000,
    files,
    content: (i, f) => (f === big ? `${bigText}\n// ${i}\n` : f === 'README.md' ? `# Code bench\n\nrevision ${i}\n` : `export const at = ${i};\n`),
  });
  const pushUrl = new URL(`${suite.baseUrl}/${adminName}/${repo}.git`);
  pushUrl.username = adminName;
  pushUrl.password = adminPw;
  say('pushing the repository');
  execFileSync('git', [`--git-dir=${bare}`, 'push', '-q', pushUrl.toString(), 'main'], { env: benchGitEnv(), stdio: 'ignore' });

  const fetchOk = async (url, type, init) => {
    const res = await fetch(`${suite.baseUrl}${url}`, init);
    const body = await res.text();
    if (res.status !== 200 || !(res.headers.get('content-type') ?? '').includes(type)) {
      throw new Error(`${init?.method ?? 'GET'} ${url} answered ${res.status} ${res.headers.get('content-type')}: ${body.slice(0, 200)}`);
    }
    return body;
  };
  const api = `/api/v1/repos/${adminName}/${repo}`;
  const treePage = () => fetchOk(`/${adminName}/${repo}/src/branch/main/dir`, 'text/html');
  const fileContents = () => fetchOk(`${api}/file-contents?ref=main`, 'application/json', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ files: folder }),
  });
  const filePage = () => fetchOk(`/${adminName}/${repo}/src/branch/main/${big}`, 'text/html');
  const rawPlusHighlight = async () => highlightLines(await fetchOk(`${api}/raw/${big}?ref=main`, 'text/plain'), 'big.ts');

  // Sanity: the pages show what is measured; the floor answers every path with its last commit.
  const tree = await treePage();
  const rows = (tree.match(/class="tree-commit"><a /g) ?? []).length;
  if (rows !== FOLDER_ENTRIES) throw new Error(`the tree page shows ${rows} last commits, not ${FOLDER_ENTRIES}`);
  const floorItems = JSON.parse(await fileContents());
  if (floorItems.filter((x) => x?.last_commit_sha).length !== FOLDER_ENTRIES) throw new Error('/file-contents did not answer every path');
  const file = await filePage();
  const lines = (file.match(/<tr id="L\d+">/g) ?? []).length;
  if (lines !== BIG_FILE_LINES + 1) throw new Error(`the file page shows ${lines} lines, not ${BIG_FILE_LINES + 1}`);

  // The listing the tree page builds on, alone through the API (without the commits' summaries and count).
  const listing = () => fetchOk(`${api}/contents/dir?ref=main`, 'application/json');

  say('measuring');
  const m = await measureInTurns(
    { treePage, fileContents, listing, filePage, rawPlusHighlight },
    { warmup: 5, runs: RUNS },
  );
  report('  for scale: GET …/contents/dir (the bare listing)', m.listing, m.fileContents);
  report(`tree of ${FOLDER_ENTRIES} entries (last commits) vs /file-contents`, m.treePage, m.fileContents);
  report(`${BIG_FILE_LINES}-line file view vs raw + highlighting`, m.filePage, m.rawPlusHighlight);
} finally {
  await run.cleanup();
}
