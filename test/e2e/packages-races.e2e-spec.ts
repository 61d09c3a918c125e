/**
 * Concurrent publish and delete on the generic (curl) and npm (the npm CLI) registries (issue 25, finding 5): an
 * upload racing a delete of the same version or package is answered 201 and then stays stored, or is refused with a
 * 4xx/5xx — never 200 with nothing stored, never 201 and then gone. Bounded: a fixed number of rounds, each waiting
 * for both requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmClient, writePackage, type NpmClient } from '../support/npm-cli.js';
import { createPackageUser, curl, genericFileUrl, registryUrls, startPackagesSuite, type PackageUser, type PackagesTestBed } from '../support/packages.js';

const ROUNDS = Number(process.env.CAIRN_RACE_ROUNDS ?? 12);

describe('concurrent publish and delete on the package registries', () => {
  let bed: PackagesTestBed;
  let alice: PackageUser;

  beforeAll(async () => {
    bed = await startPackagesSuite();
    alice = await createPackageUser(bed.suite, bed.admin, 'alice');
  }, 300_000);

  afterAll(() => bed?.stop());

  it('generic: a file uploaded while the version\'s other file is deleted is 201 and stays, or refused — never 200', async () => {
    const auth = ['-u', `${alice.username}:${alice.token}`];
    const statuses: Record<string, number> = {};
    for (let i = 0; i < ROUNDS; i++) {
      const version = `1.0.${i}`;
      const first = await curl([...auth, '-X', 'PUT', '--data-binary', 'first', genericFileUrl(bed.suite, alice.username, 'race', version, 'a.txt')]);
      expect(first.status).toBe(201);
      // The version's only file is deleted (which removes the version) while a second file is uploaded to it.
      const [upload, removal] = await Promise.all([
        curl([...auth, '-X', 'PUT', '--data-binary', `second ${i}`, genericFileUrl(bed.suite, alice.username, 'race', version, 'b.txt')]),
        curl([...auth, '-X', 'DELETE', genericFileUrl(bed.suite, alice.username, 'race', version, 'a.txt')]),
      ]);
      statuses[upload.status] = (statuses[upload.status] ?? 0) + 1;
      expect([201, 409, 503], `upload ${version}: ${upload.status} ${upload.body.toString()}`).toContain(upload.status);
      expect([204, 404], `delete ${version}: ${removal.status}`).toContain(removal.status);
      const stored = await curl([...auth, genericFileUrl(bed.suite, alice.username, 'race', version, 'b.txt')]);
      if (upload.status === 201) {
        expect(stored.status, `${version}: answered 201, then gone`).toBe(200);
        expect(stored.body.toString()).toBe(`second ${i}`);
      } else {
        expect(stored.status).toBe(404);
      }
    }
    console.log(`generic races: upload answers ${JSON.stringify(statuses)}`);
  });

  it('npm: a version published while another version is unpublished is published and stays, or refused', async () => {
    const registry = registryUrls(bed.suite, alice.username).npm;
    const name = '@race/pkg';
    const npm: NpmClient = npmClient(registry, { token: alice.token });
    const publish = (version: string) =>
      npm.run(['publish'], { cwd: writePackage(npm.dir, { name, version, main: 'index.js' }, { 'index.js': `'${version}';\n` }), allowFailure: true });
    const outcomes: Record<string, number> = {};
    try {
      // An anchor version stays: the npm CLI unpublishes the whole package when asked for its only version, which
      // may legitimately land after a publish; here every unpublish removes one version only.
      for (const v of ['0.0.1', '1.0.0']) {
        const first = await publish(v);
        expect(first.code, first.stderr).toBe(0);
      }
      let previous = '1.0.0';
      for (let i = 1; i <= Math.ceil(ROUNDS / 2); i++) {
        const version = `1.0.${i}`;
        const [published, unpublished] = await Promise.all([
          publish(version),
          npm.run(['unpublish', `${name}@${previous}`, '--force'], { allowFailure: true }),
        ]);
        outcomes[published.code === 0 ? 'published' : 'refused'] = (outcomes[published.code === 0 ? 'published' : 'refused'] ?? 0) + 1;
        const view = await npm.run(['view', `${name}@${version}`, 'version'], { allowFailure: true });
        if (published.code === 0) {
          expect(view.stdout.trim(), `${version}: published, then gone (unpublish: ${unpublished.code})`).toBe(version);
          previous = version;
        } else {
          // Refused with an answer npm shows (never an empty 200 npm takes for success).
          expect(published.stderr, version).toMatch(/\b(409|5\d\d|E409|E5\d\d)\b/);
          const again = await publish(version);
          expect(again.code, again.stderr).toBe(0);
          previous = version;
        }
      }
    } finally {
      npm.dispose();
    }
    console.log(`npm races: ${JSON.stringify(outcomes)}`);
  });
});
