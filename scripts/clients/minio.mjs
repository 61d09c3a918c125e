// MinIO from the Go module proxy (its documented source build); it tags releases by date, so the proxy knows only a
// pseudo-version.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { homedir } from 'node:os';

/** The newest the Go module proxy served on 2026-11-28 (`go install github.com/minio/minio@latest`). */
const VERSION = 'v0.0.0-20260212201848-7aac2a2c5b7c';

/** @type {import('../clients.mjs').ClientSpec} */
export default {
  name: 'minio',
  version: VERSION,
  toolchain: ['go'],
  install: 'Go 1.26 or newer, https://go.dev/dl/',
  bin: 'minio',
  async build(ctx) {
    const gopath = process.env.GOPATH ?? path.join(homedir(), 'go');
    const env = { GOTOOLCHAIN: 'local', GOFLAGS: '-modcacherw', GOPATH: gopath, CGO_ENABLED: '0', GOBIN: ctx.dir };
    await ctx.run(ctx.tool('go'), ['install', '-trimpath', `github.com/minio/minio@${VERSION}`], { env });
    ctx.log((await ctx.run(path.join(ctx.dir, 'minio'), ['--version'])).split('\n')[0] ?? '');
  },
};

/**
 * Resolves once it is ready.
 * @param {{ bin: string, dataDir: string, port: number, consolePort: number, accessKeyId: string, secretAccessKey: string }} o
 * @returns {Promise<{ endpoint: string, stop: () => Promise<void> }>}
 */
export async function runMinio(o) {
  const child = spawn(o.bin, ['server', o.dataDir, '--address', `127.0.0.1:${o.port}`, '--console-address', `127.0.0.1:${o.consolePort}`, '--quiet'], {
    env: { ...process.env, MINIO_ROOT_USER: o.accessKeyId, MINIO_ROOT_PASSWORD: o.secretAccessKey, MINIO_BROWSER: 'off', MINIO_UPDATE: 'off' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`MinIO exited with ${child.exitCode}: ${stderr.slice(-2000)}`);
    const ready = await fetch(`http://127.0.0.1:${o.port}/minio/health/ready`).then((r) => r.ok, () => false);
    if (ready) return { endpoint: `127.0.0.1:${o.port}`, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`MinIO was not ready within a minute: ${stderr.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * @param {string} endpoint @param {{ accessKeyId: string, secretAccessKey: string }} credentials @param {string} bucket
 * @returns {Record<string, string>}
 */
export function minioStorageEnv(endpoint, credentials, bucket) {
  return {
    CAIRN__STORAGE__STORAGE_TYPE: 'minio',
    CAIRN__STORAGE__MINIO_ENDPOINT: endpoint,
    CAIRN__STORAGE__MINIO_ACCESS_KEY_ID: credentials.accessKeyId,
    CAIRN__STORAGE__MINIO_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    CAIRN__STORAGE__MINIO_BUCKET: bucket,
  };
}
