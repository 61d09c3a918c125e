import { describe, expect, it } from 'vitest';
import { workspaceEslint } from './workspace-eslint.js';

describe('only libs/git starts git or reads git objects (eslint.config.mjs)', () => {
  const eslint = workspaceEslint();

  async function findings(rel: string, code: string): Promise<string[]> {
    return (await eslint.lint(rel, code))
      .filter((m) => m.fatal || ((m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax') && m.message.includes('libs/git')))
      .map((m) => m.message);
  }

  const spawnsGit = "import { spawn } from 'node:child_process';\nexport const run = () => spawn('git', ['status']);\n";
  const rawProcess = "import { spawnGit } from '@cairn/git';\nexport const run = (dir: string) => spawnGit(dir, ['log']);\n";
  const oneShot = "import { runGit } from '@cairn/git';\nexport const run = (dir: string) => runGit(dir, ['log']);\n";
  const catFile = "export const args = ['cat-file', '--batch-command'];\n";

  it('lets libs/git spawn git and speak cat-file', async () => {
    for (const code of [spawnsGit, catFile]) expect(await findings('libs/git/src/example.ts', code)).toEqual([]);
  });

  it('refuses child_process, raw git processes, one-shot git commands and cat-file in apps and the other libraries', async () => {
    for (const rel of ['apps/repo-service/src/contents/example.ts', 'apps/merge-check-worker/src/example.ts', 'libs/platform/src/example.ts']) {
      expect(await findings(rel, spawnsGit)).toHaveLength(2);
      expect(await findings(rel, rawProcess)).toHaveLength(1);
      expect(await findings(rel, oneShot)).toHaveLength(1);
      expect(await findings(rel, catFile)).toHaveLength(1);
    }
  });

  it('lets an app use what libs/git offers, and type-import child_process', async () => {
    const code = "import type { ChildProcess } from 'node:child_process';\nimport { spawnBlobReader, type CatFilePool } from '@cairn/git';\n" +
      'export type X = [ChildProcess, CatFilePool, typeof spawnBlobReader];\n';
    expect(await findings('apps/repo-service/src/contents/example.ts', code)).toEqual([]);
  });

  it('lets the gpg/ssh-keygen runner spawn processes, but not git', async () => {
    const rel = 'apps/repo-service/src/git-core/signing/signing-tools.ts';
    expect(await findings(rel, "import { spawn } from 'node:child_process';\nexport const run = () => spawn('gpg', []);\n")).toEqual([]);
    expect(await findings(rel, rawProcess)).toHaveLength(1);
    expect(await findings(rel, oneShot)).toHaveLength(1);
    expect(await findings(rel, "import { spawn } from 'node:child_process';\nexport const run = () => spawn('git', []);\n")).toHaveLength(1);
  });

  it('leaves tests free to build fixtures with git', async () => {
    expect(await findings('apps/repo-service/src/contents/example.int-spec.ts', spawnsGit + catFile)).toEqual([]);
  });
});
