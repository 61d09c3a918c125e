import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = 'apps/repo-service/src';

// The workspace's own ESLint configuration, so the test proves the layer rule in use (apps/repo-service/layers.json).
describe("repo-service's layer rule (eslint.config.mjs)", () => {
  let eslint: ESLint;
  const saved = process.env.CAIRN_LINT_NO_TYPES;

  beforeAll(() => {
    process.env.CAIRN_LINT_NO_TYPES = '1';
    eslint = new ESLint({ cwd: ROOT, overrideConfigFile: path.join(ROOT, 'eslint.config.mjs') });
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.CAIRN_LINT_NO_TYPES;
    else process.env.CAIRN_LINT_NO_TYPES = saved;
  });

  /** The restricted-import messages for a file `rel` importing `spec`. */
  async function refusals(rel: string, spec: string) {
    const [result] = await eslint.lintText(`export * from '${spec}';\n`, { filePath: path.join(ROOT, SRC, rel) });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.fatal).map((m) => m.message);
  }

  it('refuses an import of a layer above: git-core of code or tracker, code of tracker, shared of any layer', async () => {
    expect(await refusals('git-core/transport/example.ts', '../../code/releases/attachments.service.js')).toEqual([
      expect.stringContaining('git-core is below code, tracker'),
    ]);
    expect(await refusals('git-core/git/deep/example.ts', '../../../tracker/pulls/pulls.repository.js')).toHaveLength(1);
    expect(await refusals('code/branches/example.ts', '../../tracker/pulls/pulls.repository.js')).toEqual([
      expect.stringContaining('code is below tracker'),
    ]);
    expect(await refusals('shared/access/example.ts', '../../git-core/repositories/repo-views.js')).toHaveLength(1);
  });

  it('lets a layer import itself and the layers below it; tests may reach across', async () => {
    expect(await refusals('code/branches/example.ts', '../contents/contents.service.js')).toEqual([]);
    expect(await refusals('code/branches/example.ts', '../../git-core/git/refs.js')).toEqual([]);
    expect(await refusals('tracker/pulls/example.ts', '../../code/branches/branches.module.js')).toEqual([]);
    expect(await refusals('git-core/git/example.int-spec.ts', '../../code/contents/contents.module.js')).toEqual([]);
  });

  it('still refuses deep @cairn imports inside a layer (the layer block keeps the workspace pattern)', async () => {
    expect(await refusals('code/branches/example.ts', '@cairn/platform/src/git/git-process.js')).toHaveLength(1);
  });
});
