import { readFileSync } from 'node:fs';
import { parseIni, type IniData } from './ini.js';
import { parseNatsNamespace } from '../nats/nats-namespace.js';

/**
 * Settings mirror Gitea's `[section] KEY`. Sources, later wins: the default, then `app.ini` (path in `CAIRN_CONFIG`),
 * then the environment variable `CAIRN__<SECTION>__<KEY>` (section dots and dashes become `_`, all upper case).
 * Infrastructure URLs (`DATABASE_URL`, …) are plain variables: declare them with `env` instead of `section`.
 */
export interface SettingSpec<T> {
  /** The Gitea section, e.g. `repository.pull-request`; omit for a plain environment variable. */
  section?: string;
  /** The key (inside the section), or the plain variable's name. */
  key: string;
  default: T;
  /** Turns the raw text into a value or throws an Error whose message says what is accepted. */
  parse: (raw: string) => T;
}

export type SettingsSpec = Record<string, SettingSpec<unknown>>;
export type SettingsOf<S extends SettingsSpec> = { [K in keyof S]: S[K] extends SettingSpec<infer T> ? T : never };

/** Raised at start when any setting is invalid; its message lists every bad setting by name. */
export class ConfigError extends Error {}

/** The environment variable that overrides a setting. */
export function envNameFor(spec: Pick<SettingSpec<unknown>, 'section' | 'key'>): string {
  if (!spec.section) return spec.key;
  const section = spec.section.replace(/[.-]/g, '_').toUpperCase();
  return `CAIRN__${section}__${spec.key.toUpperCase()}`;
}

/** Where a setting is named in messages: `[section] KEY (CAIRN__SECTION__KEY)`. */
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

/** Reads and validates every setting of a spec; throws one {@link ConfigError} naming all invalid ones. */
export function loadSettings<S extends SettingsSpec>(spec: S, env: NodeJS.ProcessEnv = process.env): SettingsOf<S> {
  const ini = readIni(env);
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, s] of Object.entries(spec)) {
    const fromEnv = env[envNameFor(s)];
    const fromIni = s.section ? ini?.get(s.section.toLowerCase())?.get(s.key.toUpperCase()) : undefined;
    const raw = fromEnv ?? fromIni;
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

// ---- parsers ---------------------------------------------------------------------------------------------------

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
  /** Go-style durations as Gitea writes them (`5s`, `1m`, `2h`, `1h30m`); a bare number is seconds. Returns ms. */
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

/** Settings every app reads. */
export const commonSettings = {
  databaseUrl: {
    key: 'DATABASE_URL',
    default: 'postgresql://postgres@127.0.0.1:5432/cairn',
    parse: parsers.url('postgres', 'postgresql'),
  },
  natsUrl: { key: 'NATS_URL', default: 'nats://127.0.0.1:4222', parse: parsers.string },
  /**
   * Namespace of this installation's NATS subjects, queue groups, stream and consumers, so several installations
   * (or test runs) can share one NATS server; empty keeps the plain names. Letters, digits, `-`, `_`.
   */
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
  /** Request-reply timeout for calls between services. */
  rpcTimeoutMs: { section: 'cairn', key: 'RPC_TIMEOUT', default: 10_000, parse: parsers.durationMs },
  runMode: { section: '', key: 'RUN_MODE', default: 'prod', parse: parsers.oneOf('dev', 'prod', 'test') },
  /** Prefix of every BullMQ queue and Redis key, so several installations (or test runs) can share one Redis. */
  queuePrefix: { section: 'queue', key: 'PREFIX', default: 'cairn', parse: parsers.string },
  /** Where the gateway reaches repo-service's internal HTTP endpoint (git smart HTTP); one URL per Service. */
  repoInternalUrl: {
    section: 'cairn',
    key: 'REPO_INTERNAL_URL',
    default: 'http://127.0.0.1:3001',
    parse: parsers.url('http', 'https'),
  },
  /** The port repo-service's internal HTTP endpoint listens on. */
  repoInternalPort: { section: 'cairn', key: 'REPO_INTERNAL_PORT', default: 3001, parse: parsers.int(0, 65535) },
  /**
   * Shared secret that internal HTTP endpoints require from the gateway (header `x-cairn-internal-token`). The
   * default is for local development only; set it in production.
   */
  internalToken: {
    section: 'security',
    key: 'INTERNAL_TOKEN',
    default: 'cairn-dev-internal-token',
    parse: (raw: string) => {
      if (raw.length < 16) throw new Error('expected at least 16 characters');
      return raw;
    },
  },
} satisfies SettingsSpec;

export type CommonSettings = SettingsOf<typeof commonSettings>;
