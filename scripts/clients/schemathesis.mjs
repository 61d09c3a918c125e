// schemathesis from PyPI, in a virtual environment of its own in the cache folder.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The newest PyPI served on 2026-11-28 (`pip index versions schemathesis`). */
const VERSION = '4.32.5';

/**
 * pip writes the venv's absolute path into `st`'s first line, but the venv is renamed into the cache: this header
 * (pip's own form for long paths) finds python beside the launcher.
 */
const RELOCATABLE_HEADER = `#!/bin/sh\n'''exec' "$(dirname "$0")/python3" "$0" "$@"\n' '''\n`;

/** @type {import('../clients.mjs').ClientSpec} */
export default {
  name: 'schemathesis',
  version: VERSION,
  toolchain: ['python3'],
  install: 'Python 3 with venv and pip, e.g. `apt-get install python3-venv`',
  bin: 'venv/bin/st',
  async build(ctx) {
    const venv = path.join(ctx.dir, 'venv');
    await ctx.run(ctx.tool('python3'), ['-m', 'venv', venv]);
    await ctx.run(path.join(venv, 'bin', 'python3'), [
      '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `schemathesis==${VERSION}`,
    ]);
    const launcher = path.join(venv, 'bin', 'st');
    const [, ...rest] = readFileSync(launcher, 'utf8').split('\n');
    writeFileSync(launcher, RELOCATABLE_HEADER + rest.join('\n'));
    ctx.log(`schemathesis ${(await ctx.run(launcher, ['--version'])).trim()}`);
  },
};
