import type { GitService } from '@cairn/git';

export type { GitService };

export interface ParsedGitCommand {
  service: GitService;
  owner: string;
  repo: string;
}

/** Owner and repository names as they may appear in a git URL (the storage rule re-checks them). */
const NAME = '[A-Za-z0-9_.-]{1,100}';
const PATH = `/?(${NAME})/(${NAME})`;
const COMMAND = new RegExp(`^(git-upload-pack|git-receive-pack|git upload-pack|git receive-pack) (?:'${PATH}'|${PATH})$`);

/** `git-upload-pack '/owner/repo.git'` and spelling variants; options, `..`, other programs or shell syntax refused. */
export function parseSshGitCommand(command: string): ParsedGitCommand | { error: string } {
  const m = COMMAND.exec(command);
  if (!m) {
    return { error: "Invalid command: only git-upload-pack and git-receive-pack 'owner/repository.git' are allowed" };
  }
  const service: GitService = m[1].endsWith('upload-pack') ? 'upload-pack' : 'receive-pack';
  const owner = m[2] ?? m[4];
  let repo = m[3] ?? m[5];
  if (repo.toLowerCase().endsWith('.git')) repo = repo.slice(0, -4);
  // Repository names may start with `-` (Gitea allows it; git only ever gets the absolute storage path, after
  // `--end-of-options`); user and organization names never do.
  if (owner.startsWith('-')) return { error: 'Invalid repository path' };
  for (const name of [owner, repo]) {
    if (!name || name === '.' || name === '..' || name.toLowerCase().endsWith('.git')) {
      return { error: 'Invalid repository path' };
    }
  }
  return { service, owner, repo };
}

/** `GIT_PROTOCOL` as clients send it (`version=2`); anything else is dropped rather than handed to git. */
export function sanitizeGitProtocol(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  return /^[A-Za-z0-9=:._-]{1,100}$/.test(value) ? value : undefined;
}
