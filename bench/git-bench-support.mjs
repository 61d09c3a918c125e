// Shared helpers of the git benchmarks: the environment of the git they run, build a bare repository with
// `git fast-import` (fast, any size), time a function, and report `ratio = ours / floor`. No assertions: numbers are
// printed, never checked. Needs a build (the git environment comes from libs/git/dist).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// The module itself, not the package index: the index would load all of the platform (Nest, NATS…) for one function.
import { gitEnvironment } from '../libs/git/dist/git-environment.js';

/**
 * The environment of a git process a benchmark runs itself (floors, setup, clients): Cairn's own rule
 * (`gitEnvironment` of `@cairn/git`: no user or system configuration, no prompts, C locale), so that a floor
 * runs git exactly as the service does, plus a fixed committer identity and `extra`.
 */
export function benchGitEnv(extra = {}) {
  return gitEnvironment({
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
    ...extra,
  });
}

/** A new temporary folder whose name starts with `prefix`. */
export function tempRoot(prefix) {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Removes a folder made by {@link tempRoot}, with everything in it. */
export function removeRoot(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Creates `<root>/<owner>/<name>.git` with `commits` commits on `main`, one minute apart from `startSeconds`
 * (committer = author date). Commit i changes file `files[i % files.length]` (content from `content(i)`); the first
 * commit adds every file.
 */
export function fastImportRepo({ root, owner, name, commits, startSeconds, files, content }) {
  const bare = path.join(root, owner.toLowerCase(), `${name.toLowerCase()}.git`);
  mkdirSync(path.dirname(bare), { recursive: true });
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  const chunks = [];
  const data = (s) => {
    const b = Buffer.from(s);
    chunks.push(Buffer.from(`data ${b.length}\n`), b, Buffer.from('\n'));
  };
  for (let i = 0; i < commits; i++) {
    const ts = startSeconds + i * 60;
    chunks.push(Buffer.from(`commit refs/heads/main\nmark :${i + 1}\n`));
    chunks.push(Buffer.from(`author Bench <bench${i % 7}@example.com> ${ts} +0000\n`));
    chunks.push(Buffer.from(`committer Bench <bench${i % 7}@example.com> ${ts} +0000\n`));
    data(`commit ${i}\n\nchanges ${i}\n`);
    if (i > 0) chunks.push(Buffer.from(`from :${i}\n`));
    const touched = i === 0 ? files : [files[i % files.length]];
    for (const f of touched) {
      chunks.push(Buffer.from(`M 100644 inline ${f}\n`));
      data(content(i, f));
    }
    chunks.push(Buffer.from('\n'));
  }
  execFileSync('git', [`--git-dir=${bare}`, 'fast-import', '--quiet'], {
    input: Buffer.concat(chunks),
    maxBuffer: 1 << 30,
  });
  execFileSync('git', [`--git-dir=${bare}`, 'gc', '--quiet']);
  return bare;
}

/** Runs `fn` `warmup` times, then `runs` times; returns the median and p90 in milliseconds. */
export async function measure(fn, { warmup = 5, runs = 40 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)] };
}

/**
 * Like {@link measure} for several functions at once, run in turns (a, b, c, a, b, c, …) so that each sees the same
 * machine load — on a shared machine, load that changes between two separate `measure` calls skews their ratio.
 * Returns the median and p90 of each, by name.
 */
export async function measureInTurns(fns, { warmup = 5, runs = 40 } = {}) {
  const names = Object.keys(fns);
  for (let i = 0; i < warmup; i++) for (const n of names) await fns[n]();
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < runs; i++) {
    for (const n of names) {
      const t = process.hrtime.bigint();
      await fns[n]();
      times[n].push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
  return Object.fromEntries(
    names.map((n) => {
      const sorted = times[n].sort((a, b) => a - b);
      return [n, { median: sorted[Math.floor(sorted.length / 2)], p90: sorted[Math.floor(sorted.length * 0.9)] }];
    }),
  );
}

/** Runs a command to completion with optional stdin; resolves with stdout bytes. */
export function run(cmd, args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`${cmd} exited ${code}`))));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

/** Prints one result row: both medians and p90s, and `ratio = ours / floor` of the medians. */
export function report(label, ours, floor) {
  const f = (n) => n.toFixed(2).padStart(8);
  console.log(
    `${label.padEnd(58)} ours ${f(ours.median)} ms (p90 ${f(ours.p90)})  floor ${f(floor.median)} ms (p90 ${f(floor.p90)})  ratio = ${(ours.median / floor.median).toFixed(2)}`,
  );
}
