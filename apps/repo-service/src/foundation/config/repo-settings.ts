import { Global, Module } from '@nestjs/common';
import { isValidBranchName, type TwoFactorPolicy } from '@cairn/contracts';
import { attachmentsStoragePath, loadSettings, parsers, type SettingsOf } from '@cairn/platform';
import { signingSettingsSpec } from './signing-settings.js';

/** An SSH login name (`[server] SSH_USER`, `BUILTIN_SSH_SERVER_USER`). */
export const parseSshUser = parsers.matching(/^[A-Za-z0-9._-]{1,64}$/, 'a user name (letters, digits, . _ -)');

/** repo-service's own settings (Gitea's names). */
export const repoSettingsSpec = {
  /** `[repository] DEFAULT_BRANCH`: the branch of new repositories when the request names none. */
  defaultBranch: {
    section: 'repository',
    key: 'DEFAULT_BRANCH',
    default: 'main',
    parse: parsers.matching(isValidBranchName, 'a valid git branch name'),
  },
  /** `[server] SSH_DOMAIN`: the host of `ssh_url`; empty = the host of ROOT_URL. */
  sshDomain: {
    section: 'server',
    key: 'SSH_DOMAIN',
    default: '',
    parse: parsers.matching(/^$|^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, 'a host name'),
  },
  /** `[server] SSH_USER`: the user of `ssh_url` (Gitea's `BUILTIN_SSH_SERVER_USER`). */
  sshUser: {
    section: 'server',
    key: 'SSH_USER',
    default: 'git',
    parse: parseSshUser,
  },
  /** How long repository creation waits for hooks-service to copy default hooks before answering anyway. */
  hooksInitTimeoutMs: { section: 'cairn', key: 'HOOKS_INIT_TIMEOUT', default: 2_000, parse: parsers.durationMs },
  /** `enforced`: lists leave private repositories out and SSH git is refused (rule: `twoFactorDeniesRepoAccess`). */
  twoFactorAuth: {
    section: 'security',
    key: 'TWO_FACTOR_AUTH',
    default: '' as TwoFactorPolicy,
    parse: (raw: string) => parsers.oneOf('', 'enforced')(raw) as TwoFactorPolicy,
  },
  /** At most one deploy key `last_used_at` write per this window (identity-service applies it to tokens and keys). */
  keyLastUsedUpdateIntervalMs: {
    section: 'security',
    key: 'TOKEN_LAST_USED_UPDATE_INTERVAL',
    default: 60_000,
    parse: parsers.durationMs,
  },
  /** `[service] AUTO_WATCH_NEW_REPOS`: whoever creates (or forks) a repository watches it, as in Gitea. */
  autoWatchNewRepos: { section: 'service', key: 'AUTO_WATCH_NEW_REPOS', default: true, parse: parsers.bool },
  /** The most commits one ref update carries in a push event (the total is always reported). */
  pushMaxCommits: { section: 'cairn', key: 'PUSH_EVENT_MAX_COMMITS', default: 20, parse: parsers.int(1, 1000) },
  attachmentPath: attachmentsStoragePath,
  ...signingSettingsSpec,
};

export type RepoSettings = SettingsOf<typeof repoSettingsSpec>;

export const REPO_SETTINGS = Symbol('REPO_SETTINGS');

export function loadRepoSettings(env: NodeJS.ProcessEnv = process.env): RepoSettings {
  return loadSettings(repoSettingsSpec, env);
}

@Global()
@Module({
  providers: [{ provide: REPO_SETTINGS, useFactory: () => loadRepoSettings() }],
  exports: [REPO_SETTINGS],
})
export class RepoConfigModule {}
