/**
 * The real `npm` CLI (the one that ships with the Node running the tests) against a Cairn npm registry, isolated
 * from the machine's own npm setup: its own user config, cache and HOME in a temporary folder, and no `npm_config_*`
 * variables inherited from the test runner.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface NpmResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface NpmOptions {
  /**
   * Map only this scope (`@scope:registry=`) to the registry; the default registry is then an address where nothing
   * listens, so whatever npm installs must come through the scope's mapping.
   */
  scope?: string;
}

export interface NpmCredentials {
  /** Sent as `Authorization: Bearer <token>` (`.npmrc` `_authToken`). */
  token?: string;
  /** Sent as Basic (`.npmrc` `username` / `_password`). */
  basic?: { username: string; password: string };
}

export interface NpmClient {
  /** The client's own folder (config, cache, HOME); removed by `dispose`. */
  dir: string;
  /** Runs `npm <args>` in `cwd` (default: the client's folder); rejects on a non-zero exit unless `allowFailure`. */
  run(args: string[], options?: { cwd?: string; allowFailure?: boolean }): Promise<NpmResult>;
  dispose(): void;
}

/** The `npm` next to the running node when it ships there, else the first on PATH (which then runs on that node). */
const NPM_CLI = existsSync(path.join(path.dirname(process.execPath), 'npm')) ? path.join(path.dirname(process.execPath), 'npm') : 'npm';

/** An npm client whose default registry is `registryUrl`, with the given credentials (or anonymous). */
export function npmClient(registryUrl: string, credentials: NpmCredentials = {}, options: NpmOptions = {}): NpmClient {
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-npm-'));
  const registry = registryUrl.endsWith('/') ? registryUrl : `${registryUrl}/`;
  // npm scopes credentials by the registry URL without its protocol ("nerf dart").
  const nerfDart = registry.replace(/^https?:/, '');
  const lines = [
    ...(options.scope ? [`${options.scope}:registry=${registry}`, 'registry=http://127.0.0.1:9/'] : [`registry=${registry}`]),
    'audit=false',
    'fund=false',
    'update-notifier=false',
    'loglevel=warn',
    `cache=${path.join(dir, 'cache')}`,
  ];
  if (credentials.token) lines.push(`${nerfDart}:_authToken=${credentials.token}`);
  if (credentials.basic) {
    lines.push(`${nerfDart}:username=${credentials.basic.username}`);
    lines.push(`${nerfDart}:_password=${Buffer.from(credentials.basic.password).toString('base64')}`);
  }
  const userconfig = path.join(dir, '.npmrc');
  writeFileSync(userconfig, `${lines.join('\n')}\n`, { mode: 0o600 });
  mkdirSync(path.join(dir, 'home'));

  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)),
  );
  Object.assign(env, {
    HOME: path.join(dir, 'home'),
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_userconfig: userconfig,
    npm_config_globalconfig: path.join(dir, 'globalnpmrc'),
    NO_COLOR: '1',
  });

  const run = (args: string[], options: { cwd?: string; allowFailure?: boolean } = {}) =>
    new Promise<NpmResult>((resolve, reject) => {
      const child = spawn(NPM_CLI, args, { cwd: options.cwd ?? dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        const result = { code: code ?? -1, stdout, stderr };
        if (code !== 0 && !options.allowFailure) {
          reject(new Error(`npm ${args.join(' ')} exited with ${code}:\n${stdout}\n${stderr}`));
        } else {
          resolve(result);
        }
      });
    });

  return { dir, run, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a package folder (package.json plus `files`) under `parent` and returns its path. */
export function writePackage(
  parent: string,
  manifest: Record<string, unknown>,
  files: Record<string, string | Buffer> = {},
): string {
  const folder = mkdtempSync(path.join(parent, 'pkg-'));
  writeFileSync(path.join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), content);
  }
  return folder;
}
