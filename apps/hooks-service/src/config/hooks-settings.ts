import { loadSettings, parsers, secretKeySetting, type SettingsOf } from '@cairn/platform';
import { parseHostMatchList } from '../ssrf/host-matcher.js';


const positiveDuration = (min: number, max: number) => (raw: string) => {
  const ms = parsers.durationMs(raw);
  if (ms < min || ms > max) throw new Error(`expected a duration between ${min} ms and ${max / 1000} s`);
  return ms;
};

/** hooks-service's own settings (Gitea's names where Gitea has the setting). */
export const hooksSettingsSpec = {
  /** Key material for sealing hook secrets and authorization headers (AES-256-GCM, HKDF-derived). */
  secretKey: secretKeySetting,
  /** Gitea `[webhook] DELIVER_TIMEOUT`: per attempt, connect to end of response (seconds, or a duration). */
  deliverTimeoutMs: { section: 'webhook', key: 'DELIVER_TIMEOUT', default: 5_000, parse: positiveDuration(100, 600_000) },
  /** Attempts per delivery round before it is `failed` (1 = no automatic retry). */
  maxAttempts: { section: 'webhook', key: 'MAX_ATTEMPTS', default: 5, parse: parsers.int(1, 50) },
  /** First retry delay; doubles per attempt, with jitter. */
  retryBaseDelayMs: { section: 'webhook', key: 'RETRY_BASE_DELAY', default: 2_000, parse: positiveDuration(1, 3_600_000) },
  /** Upper bound of one retry delay (also caps a receiver's `Retry-After`). */
  retryMaxDelayMs: { section: 'webhook', key: 'RETRY_MAX_DELAY', default: 3_600_000, parse: positiveDuration(1, 86_400_000) },
  /** Gitea's `ALLOWED_HOST_LIST`: `external`, `private`, `loopback`, `*`, CIDRs and host globs, comma-separated. */
  allowedHostList: {
    section: 'webhook',
    key: 'ALLOWED_HOST_LIST',
    default: 'external',
    parse: (raw: string): string => {
      const value = raw.trim() === '' ? 'external' : raw.trim();
      parseHostMatchList(value);
      return value;
    },
  },
  /** Gitea `[webhook] SKIP_TLS_VERIFY`. */
  skipTlsVerify: { section: 'webhook', key: 'SKIP_TLS_VERIFY', default: false, parse: parsers.bool },
  /** Deliveries in flight per hooks-service instance (and delivery jobs it holds at once). */
  deliverConcurrency: { section: 'webhook', key: 'DELIVER_CONCURRENCY', default: 64, parse: parsers.int(1, 1000) },
  /** How often pending deliveries without a queued job are looked for (and enqueued). */
  sweepIntervalMs: { section: 'webhook', key: 'SWEEP_INTERVAL', default: 30_000, parse: positiveDuration(100, 3_600_000) },
  /** Run the delivery worker in this process (false: only write and enqueue deliveries). */
  deliveryWorker: { section: 'webhook', key: 'DELIVERY_WORKER', default: true, parse: parsers.bool },
};

export type HooksSettings = SettingsOf<typeof hooksSettingsSpec>;

export const HOOKS_SETTINGS = Symbol('HOOKS_SETTINGS');

export function loadHooksSettings(env: NodeJS.ProcessEnv = process.env): HooksSettings {
  return loadSettings(hooksSettingsSpec, env);
}
