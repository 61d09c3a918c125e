import { readFileSync } from 'node:fs';
import { parseIni, type IniData } from './ini.js';
import { parseNatsNamespace } from './nats-namespace-setting.js';

/** Gitea's `[section] KEY`; later wins: default, `app.ini` (`CAIRN_CONFIG`), `CAIRN__<SECTION>__<KEY>`. Plain variables use `env`. */
export interface SettingSpec<T> {
  section?: string;
  key: string;
  default: T;
  /** Throws an Error whose message says what is accepted. */
  parse: (raw: string) => T;
  /** A public development default: with `RUN_MODE=prod` the apps refuse to start unless it is changed. */
  secret?: true;
}

export type SettingsSpec = Record<string, SettingSpec<unknown>>;
export type SettingsOf<S extends SettingsSpec> = { [K in keyof S]: S[K] extends SettingSpec<infer T> ? T : never };

/** Its message lists every bad setting by name. */
export class ConfigError extends Error {}

export function envNameFor(spec: Pick<SettingSpec<unknown>, 'section' | 'key'>): string {
  if (!spec.section) return spec.key;
  const section = spec.section.replace(/[.-]/g, '_').toUpperCase();
  return `CAIRN__${section}__${spec.key.toUpperCase()}`;
}

export function describeSetting(spec: Pick<SettingSpec<unknown>, 'section' | 'key'>): string {
  return spec.section ? `[${spec.section}] ${spec.key} (${envNameFor(spec)})` : spec.key;
}

let iniCache: { path: string; data: IniData } | undefined;
function readIni(env: NodeJS.ProcessEnv): IniData | undefined {
  const path = env.CAIRN_CONFIG;
  if (!path) return undefined;
  if (iniCache?.path !== path) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new ConfigError(`CAIRN_CONFIG: cannot read ${path}: ${(err as Error).message}`);
    }
    iniCache = { path, data: parseIni(text) };
  }
  return iniCache.data;
}

function rawValue(s: Pick<SettingSpec<unknown>, 'section' | 'key'>, env: NodeJS.ProcessEnv, ini: IniData | undefined) {
  const fromEnv = env[envNameFor(s)];
  const fromIni = s.section ? ini?.get(s.section.toLowerCase())?.get(s.key.toUpperCase()) : undefined;
  return fromEnv ?? fromIni;
}

export function loadSettings<S extends SettingsSpec>(spec: S, env: NodeJS.ProcessEnv = process.env): SettingsOf<S> {
  const ini = readIni(env);
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, s] of Object.entries(spec)) {
    const raw = rawValue(s, env, ini);
    if (raw === undefined) {
      out[name] = s.default;
      continue;
    }
    try {
      out[name] = s.parse(raw);
    } catch (err) {
      problems.push(`${describeSetting(s)} = "${raw}": ${(err as Error).message}`);
    }
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return out as SettingsOf<S>;
}

export const parsers = {
  string: (raw: string) => raw,
  int:
    (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
    (raw: string) => {
      if (!/^-?\d+$/.test(raw.trim())) throw new Error(`expected an integer between ${min} and ${max}`);
      const n = Number(raw.trim());
      if (n < min || n > max) throw new Error(`expected an integer between ${min} and ${max}`);
      return n;
    },
  bool: (raw: string) => {
    const v = raw.trim().toLowerCase();
    if (['1', 'true', 't', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'f', 'no', 'off', ''].includes(v)) return false;
    throw new Error('expected true or false');
  },
  oneOf:
    <T extends string>(...values: T[]) =>
    (raw: string): T => {
      const v = raw.trim();
      const hit = values.find((x) => x.toLowerCase() === v.toLowerCase());
      if (hit === undefined) throw new Error(`expected one of: ${values.map((x) => `"${x}"`).join(', ')}`);
      return hit;
    },
  /** The trimmed value when `valid` accepts it, else "expected <expected>". */
  matching:
    (valid: RegExp | ((value: string) => boolean), expected: string) =>
    (raw: string): string => {
      const v = raw.trim();
      if (!(typeof valid === 'function' ? valid(v) : valid.test(v))) throw new Error(`expected ${expected}`);
      return v;
    },
  list: (raw: string) =>
    raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  url:
    (...protocols: string[]) =>
    (raw: string) => {
      let u: URL;
      try {
        u = new URL(raw.trim());
      } catch {
        throw new Error('expected a URL');
      }
      if (protocols.length && !protocols.includes(u.protocol.replace(/:$/, ''))) {
        throw new Error(`expected a URL with scheme ${protocols.join(' or ')}`);
      }
      return raw.trim();
    },
  /** Go-style durations as Gitea writes them (`1h30m`); a bare number is seconds. */
  durationMs: (raw: string) => {
    const v = raw.trim();
    if (/^\d+$/.test(v)) return Number(v) * 1000;
    const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
    let total = 0;
    let consumed = 0;
    for (const m of v.matchAll(re)) {
      consumed += m[0].length;
      total += Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
    }
    if (consumed !== v.length || consumed === 0) throw new Error('expected a duration such as 5s, 1m or 1h30m');
    return total;
  },
};

/** `USER`+`PASSWORD`, `TOKEN`, `CREDS_FILE` or `NKEY_SEED_FILE`, plus `TLS_*`; all empty: none. docs/nats-security.md. */
export const natsAuthSettings = {
  /** NATS user name (with `[nats] PASSWORD`); in deploy/nats's per-service accounts, the app's service name. */
  natsUser: { section: 'nats', key: 'USER', default: '', parse: parsers.string },
  /** NATS password of `[nats] USER`. */
  natsPassword: { section: 'nats', key: 'PASSWORD', default: '', parse: parsers.string },
  /** NATS authentication token (instead of a user). */
  natsToken: { section: 'nats', key: 'TOKEN', default: '', parse: parsers.string },
  /** Path of a NATS `.creds` file (JWT + nkey seed, decentralised authentication). */
  natsCredsFile: { section: 'nats', key: 'CREDS_FILE', default: '', parse: parsers.string },
  /** Path of a file holding an nkey user seed (`SU…`). */
  natsNkeySeedFile: { section: 'nats', key: 'NKEY_SEED_FILE', default: '', parse: parsers.string },
  /** CA bundle (PEM) the NATS server's certificate is checked against; setting it turns TLS on. */
  natsTlsCa: { section: 'nats', key: 'TLS_CA', default: '', parse: parsers.string },
  /** Client certificate (PEM) for servers that verify clients; needs TLS_KEY. */
  natsTlsCert: { section: 'nats', key: 'TLS_CERT', default: '', parse: parsers.string },
  /** Private key (PEM) of `[nats] TLS_CERT`. */
  natsTlsKey: { section: 'nats', key: 'TLS_KEY', default: '', parse: parsers.string },
};

/** The longest a mergeability check (and each merge's `merge-tree`) may run before git is killed and the check is `error`. */
export const mergeCheckTimeoutSetting: SettingSpec<number> = {
  section: 'repository.pull-request',
  key: 'CHECK_TIMEOUT',
  default: 60_000,
  parse: (raw: string) => {
    const ms = parsers.durationMs(raw);
    if (ms < 100 || ms > 3_600_000) throw new Error('expected a duration between 100ms and 1h');
    return ms;
  },
};

export const commonSettings = {
  ...natsAuthSettings,
  databaseUrl: {
    key: 'DATABASE_URL',
    default: 'postgresql://postgres@127.0.0.1:5432/cairn',
    parse: parsers.url('postgres', 'postgresql'),
  },
  natsUrl: { key: 'NATS_URL', default: 'nats://127.0.0.1:4222', parse: parsers.string },
  /** Namespace of NATS subjects, queue groups, stream and consumers, so installations can share one server; empty: plain names. */
  natsNamespace: { section: 'nats', key: 'NAMESPACE', default: '', parse: parseNatsNamespace },
  redisUrl: { key: 'REDIS_URL', default: 'redis://127.0.0.1:6379', parse: parsers.url('redis', 'rediss') },
  rootUrl: {
    section: 'server',
    key: 'ROOT_URL',
    default: 'http://localhost:3000/',
    parse: (raw: string) => {
      const u = parsers.url('http', 'https')(raw);
      return u.endsWith('/') ? u : `${u}/`;
    },
  },
  httpPort: { section: 'server', key: 'HTTP_PORT', default: 3000, parse: parsers.int(0, 65535) },
  sshPort: { section: 'server', key: 'SSH_PORT', default: 2222, parse: parsers.int(0, 65535) },
  repoRoot: { section: 'repository', key: 'ROOT', default: './data/repositories', parse: parsers.string },
  /** The largest release attachment in MB (Gitea's default); the gateway refuses larger (413), repo-service checks again. */
  attachmentMaxSizeMb: { section: 'attachment', key: 'MAX_SIZE', default: 2048, parse: parsers.int(1, 1024 * 1024) },
  /** Request-reply timeout for calls between services. */
  rpcTimeoutMs: { section: 'cairn', key: 'RPC_TIMEOUT', default: 10_000, parse: parsers.durationMs },
  /** The largest message between services; over NATS `max_payload` it travels in chunks, over this it is refused (413). */
  rpcMaxMessageBytes: {
    section: 'cairn',
    key: 'RPC_MAX_MESSAGE_SIZE',
    default: 128 * 1024 * 1024,
    parse: parsers.int(64 * 1024, 2 ** 31),
  },
  runMode: { section: '', key: 'RUN_MODE', default: 'prod', parse: parsers.oneOf('dev', 'prod', 'test') },
  /** Prefix of every BullMQ queue and Redis key, so installations can share one Redis. */
  queuePrefix: { section: 'queue', key: 'PREFIX', default: 'cairn', parse: parsers.string },
  /** Where the gateway reaches repo-service's internal HTTP endpoint (git smart HTTP). */
  repoInternalUrl: {
    section: 'cairn',
    key: 'REPO_INTERNAL_URL',
    default: 'http://127.0.0.1:3001',
    parse: parsers.url('http', 'https'),
  },
  /** The port repo-service's internal HTTP endpoint listens on. */
  repoInternalPort: { section: 'cairn', key: 'REPO_INTERNAL_PORT', default: 3001, parse: parsers.int(0, 65535) },
  /** Where the gateway reaches runners-service's internal HTTP endpoint (the Actions runner protocol). */
  runnersInternalUrl: {
    section: 'cairn',
    key: 'RUNNERS_INTERNAL_URL',
    default: 'http://127.0.0.1:3002',
    parse: parsers.url('http', 'https'),
  },
  /** The port runners-service's internal HTTP endpoint (HTTP/1.1 and h2c) listens on. */
  runnersInternalPort: { section: 'cairn', key: 'RUNNERS_INTERNAL_PORT', default: 3002, parse: parsers.int(0, 65535) },
  /** Where the gateway reaches packages-service's internal HTTP endpoint (the package registries). */
  packagesInternalUrl: {
    section: 'cairn',
    key: 'PACKAGES_INTERNAL_URL',
    default: 'http://127.0.0.1:3003',
    parse: parsers.url('http', 'https'),
  },
  /** The port packages-service's internal HTTP endpoint listens on. */
  packagesInternalPort: { section: 'cairn', key: 'PACKAGES_INTERNAL_PORT', default: 3003, parse: parsers.int(0, 65535) },
  /** Shared secret of the internal HTTP endpoints (`x-cairn-internal-token`); the public default is refused with `RUN_MODE=prod`. */
  internalToken: {
    section: 'security',
    key: 'INTERNAL_TOKEN',
    default: 'cairn-dev-internal-token',
    secret: true,
    parse: (raw: string) => {
      if (raw.length < 16) throw new Error('expected at least 16 characters');
      return raw;
    },
  },
} satisfies SettingsSpec;

export type CommonSettings = SettingsOf<typeof commonSettings>;

/** The built-in value is in the source code, so it protects nothing; other run modes accept the development defaults. */
export function requireProductionSecrets(specs: SettingsSpec[], env: NodeJS.ProcessEnv = process.env): void {
  const { runMode } = loadSettings({ runMode: commonSettings.runMode }, env);
  if (runMode !== 'prod') return;
  const ini = readIni(env);
  const seen = new Set<string>();
  const missing: string[] = [];
  for (const spec of specs) {
    for (const s of Object.values(spec)) {
      const name = describeSetting(s);
      if (!s.secret || seen.has(name)) continue;
      seen.add(name);
      const raw = rawValue(s, env, ini);
      if (raw === undefined || raw.trim() === '' || raw.trim() === String(s.default)) missing.push(name);
    }
  }
  if (missing.length) {
    throw new ConfigError(
      `RUN_MODE=prod refuses to start without these secrets (unset, or left at the public development value):\n` +
        missing.map((m) => `  - ${m}`).join('\n') +
        '\nSet each to a long random value (e.g. `openssl rand -hex 32`), the same in every app; ' +
        'or use RUN_MODE=dev for development.',
    );
  }
}

/** For clients and servers constructed without settings (tests). */
export const DEFAULT_RPC_MAX_MESSAGE_BYTES = commonSettings.rpcMaxMessageBytes.default;
