import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../..');

/** `npm run api-coverage -- --check`: client operations served or each given a reason (issue 14). */
describe('API coverage', () => {
  it('meets the floors and explains every client operation it does not serve', () => {
    const run = spawnSync(process.execPath, ['scripts/api-coverage.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    const served = /Client operations[^:]*: (\d+)\/121/.exec(run.stdout);
    expect(Number(served?.[1])).toBeGreaterThanOrEqual(110);
    expect(run.stdout).not.toContain('NOT EXPLAINED');
  });
});
