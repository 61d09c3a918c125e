import { loadSettings, parsers, type SettingsOf } from '../config/settings.js';

/** A machine running the whole suite needs one each; on Kubernetes all use 9100. */
export const OPS_DEFAULT_PORTS: Readonly<Record<string, number>> = Object.freeze({
  gateway: 9101,
  identity: 9102,
  repo: 9103,
  hooks: 9104,
  runners: 9105,
  packages: 9106,
  'merge-check': 9107,
});

/** Plain HTTP for probes and Prometheus; not public. */
export const opsSettings = {
  /** Address of the ops endpoint (`/livez`, `/readyz`, `/metrics`); Kubernetes pods use 0.0.0.0. */
  opsHost: { section: 'ops', key: 'HOST', default: '127.0.0.1', parse: parsers.string },
  /** Port of the ops endpoint; unset: the app's local default (gateway 9101 … merge-check-worker 9107). 0 picks a free port. */
  opsPort: { section: 'ops', key: 'PORT', default: null as number | null, parse: parsers.int(0, 65535) },
};

export interface OpsAddress {
  host: string;
  port: number;
}

export function opsAddress(service: string, env: NodeJS.ProcessEnv = process.env): OpsAddress {
  const s: SettingsOf<typeof opsSettings> = loadSettings(opsSettings, env);
  const port = s.opsPort ?? OPS_DEFAULT_PORTS[service];
  if (port === undefined) throw new Error(`no default ops port for service "${service}": set [ops] PORT`);
  return { host: s.opsHost, port };
}
