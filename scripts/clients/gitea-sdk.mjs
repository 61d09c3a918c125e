// Gitea's Go SDK: test/clients/gitea-sdk/ calls every SDK method Cairn implements; its key hashes the program, so an
// edit rebuilds it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The newest the Go module proxy served when pinned; go.mod requires the same. */
const VERSION = 'v0.25.1';
export const SOURCES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/clients/gitea-sdk');

function sourcesHash() {
  const hash = createHash('sha256');
  const files = readdirSync(SOURCES).filter((f) => f.endsWith('.go') || f === 'go.mod' || f === 'go.sum').sort();
  for (const f of files) hash.update(`${f}\0`).update(readFileSync(path.join(SOURCES, f))).update('\0');
  return hash.digest('hex').slice(0, 12);
}

/** @type {import('../clients.mjs').ClientSpec} */
export default {
  name: 'gitea-sdk',
  version: VERSION,
  key: `${VERSION}-${sourcesHash()}`,
  toolchain: ['go'],
  install: 'Go 1.26 or newer, https://go.dev/dl/',
  bin: 'gitea-sdk-client',
  async build(ctx) {
    const gopath = process.env.GOPATH ?? path.join(homedir(), 'go');
    const env = { GOTOOLCHAIN: 'local', GOFLAGS: '-modcacherw', GOPATH: gopath, CGO_ENABLED: '0' };
    await ctx.run(ctx.tool('go'), ['build', '-trimpath', '-o', path.join(ctx.dir, 'gitea-sdk-client'), '.'], { cwd: SOURCES, env });
  },
};
