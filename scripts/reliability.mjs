// The reliability suites (docs/reliability.md) with raised bounds unless the caller set them (`npm test` runs them
// short).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './suite.mjs';

const SUITES = {
  fuzz: { spec: 'test/e2e/fuzz.e2e-spec.ts', env: { CAIRN_FUZZ_RUNS: '40', CAIRN_FUZZ_SEED: 'random' } },
  openapi: {
    spec: 'test/e2e/client-schemathesis.e2e-spec.ts',
    env: {
      CAIRN_SCHEMATHESIS_EXAMPLES: '25',
      CAIRN_SCHEMATHESIS_SEED: 'random',
      CAIRN_SCHEMATHESIS_PHASES: 'examples,coverage,fuzzing',
    },
  },
  chaos: {
    spec: 'test/e2e/chaos.e2e-spec.ts',
    env: { CAIRN_CHAOS_ROUNDS: '3', CAIRN_CHAOS_WORKERS: '4' },
  },
};

const name = process.argv[2];
const suite = SUITES[/** @type {keyof typeof SUITES} */ (name)];
if (!suite) {
  process.stderr.write(`usage: node scripts/reliability.mjs ${Object.keys(SUITES).join('|')}\n`);
  process.exit(2);
}

/** @param {string} cmd @param {string[]} args @param {NodeJS.ProcessEnv} env @returns {Promise<number>} */
function run(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: REPO_ROOT, stdio: 'inherit', env });
    child.once('error', () => resolve(127));
    child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const env = { ...process.env };
for (const [k, v] of Object.entries(suite.env)) env[k] ??= v;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let code = await run(npm, ['run', 'build'], env);
if (code === 0) {
  code = await run(path.join(REPO_ROOT, 'node_modules', '.bin', 'vitest'), ['run', '--project', 'e2e', suite.spec], env);
}
process.exit(code);
