import { describe, expect, it } from 'vitest';
import { workspaceEslint } from './workspace-eslint.js';

const SRC = 'apps/repo-service/src';

// The workspace's own ESLint configuration, so the test proves the layer rule in use (apps/repo-service/layers.json).
describe("repo-service's layer rule (eslint.config.mjs)", () => {
  const eslint = workspaceEslint();

  async function refusals(rel: string, spec: string) {
    const messages = await eslint.lint(`${SRC}/${rel}`, `export * from '${spec}';\n`);
    return messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.fatal).map((m) => m.message);
  }

  it('refuses an import of a layer above: git-core of code or tracker, code of tracker, foundation of any layer', async () => {
    expect(await refusals('git-core/transport/example.ts', '../../code/releases/attachments.service.js')).toEqual([
      expect.stringContaining('git-core is below code, tracker'),
    ]);
    expect(await refusals('git-core/git/deep/example.ts', '../../../tracker/pulls/pulls.repository.js')).toHaveLength(1);
    expect(await refusals('code/branches/example.ts', '../../tracker/pulls/pulls.repository.js')).toEqual([
      expect.stringContaining('code is below tracker'),
    ]);
    expect(await refusals('foundation/access/example.ts', '../../git-core/repositories/repo-views.js')).toHaveLength(1);
  });

  it('lets a layer import itself and the layers below it; tests may reach across', async () => {
    expect(await refusals('code/branches/example.ts', '../contents/contents.service.js')).toEqual([]);
    expect(await refusals('code/branches/example.ts', '../../git-core/git/refs.js')).toEqual([]);
    expect(await refusals('tracker/pulls/example.ts', '../../code/branches/branches.module.js')).toEqual([]);
    expect(await refusals('git-core/git/example.int-spec.ts', '../../code/contents/contents.module.js')).toEqual([]);
  });

  it('keeps the workspace restrictions inside a layer (a later block replaces the earlier options)', async () => {
    expect(await refusals('code/branches/example.ts', '@cairn/platform/src/index.js')).toHaveLength(1);
    expect(await refusals('tracker/pulls/example.ts', 'node:child_process')).toHaveLength(1);
    expect(await refusals('code/branches/example.ts', 'node:child_process')).toHaveLength(1);
    expect(await refusals('git-core/signing/signing-tools.ts', 'node:child_process')).toEqual([]);
    expect(await refusals('git-core/signing/signing-tools.ts', '../../code/branches/branches.module.js')).toHaveLength(1);
  });
});
