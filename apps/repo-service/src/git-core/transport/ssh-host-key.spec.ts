import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { afterEach, describe, expect, it } from 'vitest';
import { generateEd25519OpenSshKey, loadOrCreateHostKey } from './ssh-host-key.js';

describe('SSH host key', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('generates an OpenSSH ed25519 private key that signs and verifies', () => {
    const pem = generateEd25519OpenSshKey();
    expect(pem).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----\n[\s\S]+\n-----END OPENSSH PRIVATE KEY-----\n$/);
    const key = ssh2.utils.parseKey(pem);
    if (key instanceof Error) throw key;
    expect(key.type).toBe('ssh-ed25519');
    expect(key.isPrivateKey()).toBe(true);
    const signature = key.sign(Buffer.from('hello'));
    expect(key.verify(Buffer.from('hello'), signature)).toBe(true);
    expect(key.verify(Buffer.from('hellO'), signature)).toBe(false);
  });

  it('creates the key once (mode 0600) and reuses it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cairn-hostkey-'));
    const path = join(dir, 'ssh', 'host_ed25519');
    const first = await loadOrCreateHostKey(path);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const second = await loadOrCreateHostKey(path);
    expect(second.equals(first)).toBe(true);
    expect((await readFile(path)).equals(first)).toBe(true);
  });

  it('refuses a file that is not a private key', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cairn-hostkey-'));
    const path = join(dir, 'bad');
    await import('node:fs/promises').then((fs) => fs.writeFile(path, 'not a key'));
    await expect(loadOrCreateHostKey(path)).rejects.toThrow(/not a usable/);
  });
});
