import { join, resolve } from 'node:path';
import { loadSettings, parsers, type SettingsOf } from '@cairn/platform';
import { parseSshUser } from '../../foundation/config/repo-settings.js';
import { serviceDataDir } from '../storage/service-data-dir.js';

/** Git transport settings of repo-service (the common ones are in @cairn/platform). */
export const transportSettingsSpec = {
  /** Run the built-in SSH server (`[server] START_SSH_SERVER`, as Gitea; on by default in Cairn). */
  startSshServer: { section: 'server', key: 'START_SSH_SERVER', default: true, parse: parsers.bool },
  /** Address the SSH server binds (`[server] SSH_LISTEN_HOST`). */
  sshListenHost: { section: 'server', key: 'SSH_LISTEN_HOST', default: '0.0.0.0', parse: parsers.string },
  /** The ed25519 host key file; empty: `<repository ROOT>/../ssh/host_ed25519`, generated on first start. */
  sshHostKeyPath: { section: 'server', key: 'SSH_HOST_KEY_PATH', default: '', parse: parsers.string },
  /** The only user name SSH clients may log in as (`git@host`), Gitea's `BUILTIN_SSH_SERVER_USER`. */
  sshServerUser: {
    section: 'server',
    key: 'BUILTIN_SSH_SERVER_USER',
    default: 'git',
    parse: parseSshUser,
  },
  /** Address the internal git HTTP endpoint binds (the gateway reaches it at `[cairn] REPO_INTERNAL_URL`). */
  internalHost: { section: 'cairn', key: 'REPO_INTERNAL_HOST', default: '127.0.0.1', parse: parsers.string },
  /** Run the internal git HTTP endpoint. */
  startInternalHttp: { section: 'cairn', key: 'START_REPO_INTERNAL_HTTP', default: true, parse: parsers.bool },
};

export type TransportSettings = SettingsOf<typeof transportSettingsSpec>;
export const TRANSPORT_SETTINGS = Symbol('TRANSPORT_SETTINGS');

export function loadTransportSettings(env: NodeJS.ProcessEnv = process.env): TransportSettings {
  return loadSettings(transportSettingsSpec, env);
}

export { serviceDataDir };

export function hostKeyPath(settings: TransportSettings, repoRoot: string): string {
  return settings.sshHostKeyPath ? resolve(settings.sshHostKeyPath) : join(serviceDataDir(repoRoot), 'ssh', 'host_ed25519');
}
