// The runner protocol's TypeScript from its .proto files, with buf and protoc-gen-es from node_modules (offline).
//   node scripts/runner-protocol-codegen.mjs            regenerate (npm run generate:protocol)
//   node scripts/runner-protocol-codegen.mjs --check    exit 1 when the committed code differs from a fresh generation
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './suite.mjs';

const APP = path.join(REPO_ROOT, 'apps/runners-service');
const GEN = 'src/protocol/gen';
const BIN = path.join(REPO_ROOT, 'node_modules/.bin');

/** @param {string} [outputBase] where buf writes (`<base>/src/protocol/gen`); default the app itself */
function generate(outputBase) {
  const args = ['generate', ...(outputBase ? ['--output', outputBase] : [])];
  const res = spawnSync(path.join(BIN, 'buf'), args, {
    cwd: APP,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  if (res.status !== 0) {
    process.stderr.write(`buf generate failed (${res.error?.message ?? `exit code ${res.status}`})\n`);
    process.exit(1);
  }
}

/** @param {string} dir @returns {Map<string, string>} relative path → content */
function files(dir) {
  /** @type {Map<string, string>} */
  const out = new Map();
  const walk = (/** @type {string} */ d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

const mode = process.argv[2];
if (mode === '--check') {
  const tmp = mkdtempSync(path.join(tmpdir(), 'cairn-protocol-'));
  try {
    generate(tmp);
    const fresh = files(path.join(tmp, GEN));
    const committed = files(path.join(APP, GEN));
    const stale = [...new Set([...fresh.keys(), ...committed.keys()])].filter((f) => fresh.get(f) !== committed.get(f));
    if (stale.length) {
      process.stderr.write(`${GEN}: out of date (${stale.join(', ')}): run \`npm run generate:protocol\`\n`);
      process.exit(1);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
} else if (mode) {
  process.stderr.write('usage: node scripts/runner-protocol-codegen.mjs [--check]\n');
  process.exit(2);
} else {
  generate();
}
