// The real clients, built from their registries into `~/.cache/cairn-clients/<name>-<key>/` (key: version, plus a source hash).
//   node scripts/clients.mjs              status of every client (version, toolchain, cached or not)
//   node scripts/clients.mjs ensure [N…]  build/install the named clients (default: all) and print their binaries
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBinary } from './suite.mjs';
import giteaSdk from './clients/gitea-sdk.mjs';
import schemathesis from './clients/schemathesis.mjs';
import minio from './clients/minio.mjs';

/**
 * @typedef {object} ClientBuildContext
 * @property {string} dir  the (temporary) folder to build into; renamed to the cache folder when `build` resolves
 * @property {(line: string) => void} log
 * @property {(cmd: string, args: string[], options?: { cwd?: string, env?: Record<string, string> }) => Promise<string>} run
 *   runs a program (argument vector, no shell), resolves its stdout, rejects with its stderr's tail on failure
 * @property {(name: string) => string} tool  the path of a toolchain program (go, python3)
 */

/**
 * @typedef {object} ClientSpec
 * @property {string} name
 * @property {string} version   the upstream version (pinned; bump deliberately)
 * @property {string} [key]     the cache key when it is more than the version (e.g. version + hash of our sources)
 * @property {string[]} toolchain  programs it needs to build (`go`, `python3`)
 * @property {string} install   what to install when the toolchain is missing (one phrase)
 * @property {string} bin       the program, relative to its cache folder
 * @property {(ctx: ClientBuildContext) => Promise<void>} build
 */

export const CACHE_ROOT = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'cairn-clients');

/** @type {ClientSpec[]} Every client, in the order CI prepares them. */
export const CLIENTS = [
  giteaSdk,
  schemathesis,
  minio,
];

/** A toolchain program (go, python3): on PATH, else where Go's installer puts it. @param {string} name */
export const findTool = (name) => findBinary(name, ['/usr/local/go/bin', path.join(homedir(), 'go', 'bin')]);

/** @param {string} name */
export function clientSpec(name) {
  const c = CLIENTS.find((x) => x.name === name);
  if (!c) throw new Error(`no client named ${name} (clients: ${CLIENTS.map((x) => x.name).join(', ')})`);
  return c;
}

/** @param {ClientSpec} c */
export function clientDir(c) {
  return path.join(CACHE_ROOT, `${c.name}-${c.key ?? c.version}`);
}

/** `missing` names the toolchain to install (null: all there). @param {ClientSpec} c */
export function clientStatus(c) {
  const absent = c.toolchain.filter((t) => !findTool(t));
  const bin = path.join(clientDir(c), c.bin);
  return { missing: absent.length ? `${absent.join(' and ')} (${c.install})` : null, bin: existsSync(bin) ? bin : null };
}

/**
 * @param {string} cmd @param {string[]} args @param {{ cwd?: string, env?: Record<string, string> }} [options]
 * @returns {Promise<string>}
 */
function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${path.basename(cmd)} ${args.join(' ')} failed (${signal ?? `exit ${code}`}): ${err.trim().split('\n').slice(-15).join('\n')}`));
    });
  });
}

/**
 * Concurrent callers each build into a folder of their own and the first rename wins, so a half-built client is never
 * found.
 * @param {string} name @param {{ log?: (line: string) => void }} [options]
 * @returns {Promise<{ bin: string, dir: string, built: boolean }>}
 */
export async function ensureClient(name, options = {}) {
  const c = clientSpec(name);
  const log = options.log ?? (() => undefined);
  const dir = clientDir(c);
  const bin = path.join(dir, c.bin);
  if (existsSync(bin)) return { bin, dir, built: false };
  const status = clientStatus(c);
  if (status.missing) throw new Error(`${c.name} needs ${status.missing}`);
  mkdirSync(CACHE_ROOT, { recursive: true });
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  log(`${c.name} ${c.version}: building into ${dir}`);
  try {
    await c.build({ dir: partial, log, run, tool: (t) => findTool(t) ?? t });
    if (!existsSync(path.join(partial, c.bin))) throw new Error(`the build left no ${c.bin}`);
    writeFileSync(path.join(partial, 'BUILT'), `${c.name} ${c.version} ${new Date().toISOString()}\n`);
    try {
      renameSync(partial, dir);
    } catch (err) {
      if (!existsSync(bin)) throw err;
      rmSync(partial, { recursive: true, force: true }); // another process finished first
    }
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
  return { bin, dir, built: true };
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const [verb = 'status', ...names] = process.argv.slice(2);
  const chosen = names.length ? names.map(clientSpec) : CLIENTS;
  if (verb === 'status') {
    for (const c of chosen) {
      const s = clientStatus(c);
      process.stdout.write(`${c.name.padEnd(14)} ${c.version.padEnd(12)} ${s.missing ? `needs ${s.missing}` : s.bin ? s.bin : 'not built yet'}\n`);
    }
  } else if (verb === 'ensure') {
    for (const c of chosen) {
      const r = await ensureClient(c.name, { log: (l) => process.stderr.write(`${l}\n`) });
      process.stdout.write(`${c.name} ${r.bin}\n`);
    }
  } else {
    process.stderr.write('usage: node scripts/clients.mjs [status | ensure [name…]]\n');
    process.exit(2);
  }
}
