import { readFileSync } from 'node:fs';
import { credsAuthenticator, nkeyAuthenticator, type NodeConnectionOptions } from '@nats-io/transport-node';
import { ConfigError, describeSetting, natsAuthSettings, type SettingsOf } from '../config/settings.js';

export type NatsAuthSettings = SettingsOf<typeof natsAuthSettings> & { natsUrl: string };

export type NatsConnectOptions = NodeConnectionOptions & { servers: string[] };

const readSetting = (spec: { section: string; key: string }, file: string): Uint8Array => {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new ConfigError(`${describeSetting(spec)}: cannot read ${file}: ${(err as Error).message}`);
  }
};

/** The inbox prefix `_INBOX.<service>` lets each service's account subscribe to its own replies only. */
export function natsConnectionOptions(s: NatsAuthSettings, service?: string): NatsConnectOptions {
  const problems: string[] = [];
  const ways = [
    s.natsUser || s.natsPassword ? 'USER/PASSWORD' : '',
    s.natsToken ? 'TOKEN' : '',
    s.natsCredsFile ? 'CREDS_FILE' : '',
    s.natsNkeySeedFile ? 'NKEY_SEED_FILE' : '',
  ].filter(Boolean);
  if (ways.length > 1) problems.push(`[nats] ${ways.join(', ')}: set only one way to authenticate`);
  if (s.natsPassword && !s.natsUser) problems.push(`${describeSetting(natsAuthSettings.natsPassword)} needs [nats] USER`);
  if (s.natsUser && !s.natsPassword) problems.push(`${describeSetting(natsAuthSettings.natsUser)} needs [nats] PASSWORD`);
  if (Boolean(s.natsTlsCert) !== Boolean(s.natsTlsKey)) problems.push('[nats] TLS_CERT and TLS_KEY go together');
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);

  const options: NatsConnectOptions = { servers: s.natsUrl.split(',').map((u) => u.trim()).filter(Boolean) };
  if (service) options.inboxPrefix = `_INBOX.${service}`;
  if (s.natsUser) Object.assign(options, { user: s.natsUser, pass: s.natsPassword });
  if (s.natsToken) options.token = s.natsToken;
  if (s.natsCredsFile) options.authenticator = credsAuthenticator(readSetting(natsAuthSettings.natsCredsFile, s.natsCredsFile));
  if (s.natsNkeySeedFile) {
    const seed = new TextDecoder().decode(readSetting(natsAuthSettings.natsNkeySeedFile, s.natsNkeySeedFile)).trim();
    options.authenticator = nkeyAuthenticator(new TextEncoder().encode(seed));
  }
  if (s.natsTlsCa || s.natsTlsCert) {
    options.tls = {
      ...(s.natsTlsCa ? { caFile: s.natsTlsCa } : {}),
      ...(s.natsTlsCert ? { certFile: s.natsTlsCert, keyFile: s.natsTlsKey } : {}),
    };
  }
  return options;
}
