import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { afterAll, beforeAll } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The workspace's own ESLint configuration (so specs prove the rules in use, not a copy), without the type-aware
 * rules: they need the file on disk.
 */
export function workspaceEslint(): { lint: (rel: string, code: string) => Promise<Linter.LintMessage[]> } {
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
  return {
    lint: async (rel, code) => (await eslint.lintText(code, { filePath: path.join(ROOT, rel) }))[0].messages,
  };
}
