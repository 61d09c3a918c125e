import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadSettings, natsAuthSettings } from '../config/settings.js';
import { natsConnectionOptions } from './nats-connection-options.js';

const build = (env: Record<string, string>, service?: string) =>
  natsConnectionOptions({ ...loadSettings(natsAuthSettings, env), natsUrl: 'nats://a:4222, nats://b:4222' }, service);

describe('natsConnectionOptions', () => {
  it('without settings: the servers only, no login', () => {
    expect(build({})).toEqual({ servers: ['nats://a:4222', 'nats://b:4222'] });
  });

  it('a user and password, and the service inbox prefix its account may subscribe to', () => {
    const o = build({ CAIRN__NATS__USER: 'hooks', CAIRN__NATS__PASSWORD: 'pw' }, 'hooks');
    expect(o).toMatchObject({ user: 'hooks', pass: 'pw', inboxPrefix: '_INBOX.hooks' });
  });

  it('a token; TLS files', () => {
    expect(build({ CAIRN__NATS__TOKEN: 't' }).token).toBe('t');
    const o = build({ CAIRN__NATS__TLS_CA: '/ca.pem', CAIRN__NATS__TLS_CERT: '/c.pem', CAIRN__NATS__TLS_KEY: '/k.pem' });
    expect(o.tls).toEqual({ caFile: '/ca.pem', certFile: '/c.pem', keyFile: '/k.pem' });
  });

  it('an nkey seed file becomes an authenticator', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cairn-nkey-'));
    try {
      const file = path.join(dir, 'seed');
      writeFileSync(file, 'SUAIBDPBAUTWCWBKIO6XHQNINK5FWJW4OHLXC3HQ2KFE4PEJUA44CNHTC4\n');
      expect(typeof build({ CAIRN__NATS__NKEY_SEED_FILE: file }).authenticator).toBe('function');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses contradictions and unreadable files, naming the settings', () => {
    expect(() => build({ CAIRN__NATS__USER: 'u', CAIRN__NATS__PASSWORD: 'p', CAIRN__NATS__TOKEN: 't' })).toThrow(
      /USER\/PASSWORD, TOKEN: set only one way/,
    );
    expect(() => build({ CAIRN__NATS__PASSWORD: 'p' })).toThrow(/PASSWORD.*needs \[nats\] USER/);
    expect(() => build({ CAIRN__NATS__TLS_CERT: '/c.pem' })).toThrow(ConfigError);
    expect(() => build({ CAIRN__NATS__CREDS_FILE: '/does/not/exist.creds' })).toThrow(
      /\[nats\] CREDS_FILE \(CAIRN__NATS__CREDS_FILE\): cannot read/,
    );
  });
});
