import { isValidRefName } from '../git/ref-name.js';

/** Gitea's `CreateRepoOption.name` `MaxSize(100)`. */
export const REPO_NAME_MAX_LENGTH = 100;

/** Gitea's `AlphaDashDot`. */
const REPO_NAME_CHARS = /^[A-Za-z0-9_.-]+$/;

/** Gitea's (`.`, `..`, `-`) plus path segments that would shadow routes under `/{owner}/`. */
export const RESERVED_REPO_NAMES: ReadonlySet<string> = new Set(['.', '..', '-', 'api', 'assets', 'wiki']);

/** They would clash with clone and feed URLs. */
export const RESERVED_REPO_NAME_SUFFIXES: readonly string[] = ['.git', '.wiki', '.rss', '.atom'];

export type RepoNameProblem = 'invalid' | 'reserved' | 'pattern';

export function checkRepoName(name: string): { problem: RepoNameProblem; message: string } | null {
  if (name.length === 0 || name.length > REPO_NAME_MAX_LENGTH || !REPO_NAME_CHARS.test(name) || name.includes('..')) {
    if (!RESERVED_REPO_NAMES.has(name)) {
      return {
        problem: 'invalid',
        message: `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`,
      };
    }
  }
  const lower = name.toLowerCase();
  if (RESERVED_REPO_NAMES.has(lower)) return { problem: 'reserved', message: `name is reserved [name: ${name}]` };
  const suffix = RESERVED_REPO_NAME_SUFFIXES.find((s) => lower.endsWith(s));
  if (suffix) return { problem: 'pattern', message: `name pattern is not allowed [pattern: *${suffix}]` };
  return null;
}

/** Gitea's `MaxSize(100)` on `default_branch`; git's own limit is much larger. */
export const BRANCH_NAME_MAX_LENGTH = 100;

export function isValidBranchName(name: string): boolean {
  return name.length <= BRANCH_NAME_MAX_LENGTH && name !== 'HEAD' && isValidRefName(name);
}
