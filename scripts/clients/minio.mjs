// MinIO (github.com/minio/minio from the Go module proxy, MinIO's own documented source build): the real
// S3-compatible server the object-storage tests run Cairn's blob store against. MinIO tags releases by date, not
// semver, so the proxy knows it only by pseudo-version.
import path from 'node:path';
import { homedir } from 'node:os';

/** The newest pseudo-version the Go module proxy served on 2026-11-28 (`go install github.com/minio/minio@latest`). */
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
