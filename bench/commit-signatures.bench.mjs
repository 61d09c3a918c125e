// Benchmark: a `/commits` page of 50 SSH-signed commits (`git commit -S`, gpg.format=ssh, ed25519) through
// CommitsService.list with verification — the committer's verified key held in memory as identity-service would
// answer it — against floors measured in the same run:
// - first request (verification cache empty: 50 signatures checked) vs the same page of 50 unsigned commits plus the
//   50 `ssh-keygen -Y verify` one would run by hand (target ≤ 2×);
// - repeated request (outcomes cached per commit and keysVersion) vs the unsigned page (target ≤ 1.2×).
// Run after `npx tsc -b tsconfig.build.json`: `node bench/commit-signatures.bench.mjs`.
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CatFilePool } from '../apps/repo-service/dist/git-core/git/cat-file-pool.js';
import { GitReadContext } from '../apps/repo-service/dist/git-core/git/git-read-context.js';
import { CommitUserDirectory } from '../apps/repo-service/dist/code/commits/commit-users.js';
import { CommitsService } from '../apps/repo-service/dist/code/commits/commits.service.js';
import { benchGitEnv, measureInTurns, removeRoot, report, run, tempRoot } from './git-bench-support.mjs';
import { benchVerifier } from './verifier-bench-support.mjs';

const PAGE = 50;
const EMAIL = 'signer@example.com';

/** No identity-service in the benchmark for the author/committer users (one bus call in production, as the keys). */
class NoUsers extends CommitUserDirectory {
  async byEmails() {
    return new Map();
  }
}

/** `<root>/bench/<name>.git` with `PAGE` commits on main, signed with `key` (a private key path) when given. */
function makeRepo(root, name, key) {
  const work = path.join(root, `work-${name}`);
  const bare = path.join(root, 'bench', `${name}.git`);
  const env = benchGitEnv({ GIT_AUTHOR_EMAIL: EMAIL, GIT_COMMITTER_EMAIL: EMAIL });
  const git = (...args) => execFileSync('git', args, { cwd: work, env }).toString('utf8').trim();
  mkdirSync(work, { recursive: true });
  git('init', '-q', '-b', 'main');
  const sign = key ? ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${key}.pub`] : [];
  for (let i = 0; i < PAGE; i++) {
    writeFileSync(path.join(work, 'f.txt'), `${i}\n`);
    git('add', 'f.txt');
    git(...sign, 'commit', '-q', ...(key ? ['-S'] : []), '-m', `commit ${i}`);
  }
  execFileSync('git', ['clone', '-q', '--bare', work, bare], { env });
  return { work, bare, ids: git('rev-list', 'main').split('\n') };
}

const root = tempRoot('cairn-bench-signatures-');
try {
  const key = path.join(root, 'signer');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'signer', '-f', key]);
  const publicKey = readFileSync(`${key}.pub`, 'utf8').trim();
  const t0 = Date.now();
  const signed = makeRepo(root, 'signed', key);
  makeRepo(root, 'unsigned', null);
  console.log(`made ${PAGE} signed and ${PAGE} unsigned commits in ${Date.now() - t0} ms`);

  // The floor's by-hand verification: each commit's signature and payload in files, one ssh-keygen per commit.
  const allowed = path.join(root, 'allowed_signers');
  writeFileSync(allowed, `${EMAIL} ${publicKey}\n`);
  const byHand = signed.ids.map((id, i) => {
    const raw = execFileSync('git', ['--git-dir', signed.bare, 'cat-file', 'commit', id]).toString('latin1');
    const m = /\ngpgsig ([^]*?-----END SSH SIGNATURE-----)\n/.exec(raw);
    const signature = m[1].replace(/\n /g, '\n') + '\n';
    const payload = Buffer.from(raw.replace(m[0], '\n'), 'latin1');
    const sigFile = path.join(root, `sig-${i}`);
    writeFileSync(sigFile, signature);
    return { sigFile, payload };
  });
  const verifyByHand = async () => {
    for (const c of byHand) {
      await run('ssh-keygen', ['-Y', 'verify', '-f', allowed, '-I', EMAIL, '-n', 'git', '-s', c.sigFile], c.payload);
    }
  };
  await verifyByHand(); // throws if any signature does not verify: the floor checks what we check

  const pool = new CatFilePool({ maxProcesses: 4, idleTimeoutMs: 60_000 });
  const fingerprint = execFileSync('ssh-keygen', ['-lf', `${key}.pub`]).toString().split(' ')[1];
  const owner = {
    user: { id: 7, login: 'signer', email: EMAIL },
    keysVersion: '1',
    activatedEmails: [EMAIL],
    noReplyEmail: 'signer@noreply.localhost',
    sshKeys: [{ id: 1, fingerprint, content: publicKey.split(' ').slice(0, 2).join(' ') }],
    gpgKeys: [],
  };
  const verifier = benchVerifier({ pool, root, owners: [owner] });
  const service = new CommitsService(new GitReadContext(pool, root, 'http://localhost:3000/', 50), new NoUsers(), verifier);
  const page = (name) =>
    service.list({
      actor: null,
      repo: { id: 1, ownerId: 1, ownerName: 'bench', name, defaultBranch: 'main', trustModel: 'committer' },
      access: 'read',
      filter: { limit: PAGE },
      options: { stat: false, verification: true, files: false },
    });
  const check = await page('signed');
  const verified = check.items.filter((c) => c.commit.verification.verified).length;
  if (check.items.length !== PAGE || verified !== PAGE) throw new Error(`expected ${PAGE} verified commits, got ${verified}`);

  const m = await measureInTurns(
    {
      first: () => {
        verifier.outcomes.clear(); // a first request: nothing verified yet
        return page('signed');
      },
      repeated: () => page('signed'),
      unsigned: () => page('unsigned'),
      unsignedPlusByHand: async () => {
        await page('unsigned');
        await verifyByHand();
      },
    },
    { warmup: 3, runs: Number(process.env.BENCH_RUNS ?? 25) },
  );
  report(`first request, ${PAGE} SSH-signed (target ≤ 2×)`, m.first, m.unsignedPlusByHand);
  report(`repeated request, ${PAGE} SSH-signed (target ≤ 1.2×)`, m.repeated, m.unsigned);
  pool.close();
} finally {
  removeRoot(root);
}
