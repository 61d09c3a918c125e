import type { TwoFactorPolicy } from '@cairn/contracts';
import { loadSettings, packagesStoragePath, parsers, secretKeySetting, type SettingsOf } from '@cairn/platform';

/** Gitea's size notation (`-1` = no limit; `100 MB`, `1 GiB`, `512KiB`, plain bytes) → bytes, or -1. */
export function parseSizeLimit(raw: string): number {
  const text = raw.trim();
  if (text === '-1') return -1;
  const m = /^(\d+(?:\.\d+)?)\s*([kmgt]?i?b?)?$/i.exec(text);
  if (!m) throw new Error('expected -1 (no limit) or a size such as 100 MB, 1 GiB, 512KiB or a number of bytes');
  const unit = (m[2] ?? '').toLowerCase().replace(/b$/, '');
  const power = ['', 'k', 'm', 'g', 't'].indexOf(unit.replace('i', ''));
  if (power < 0) throw new Error(`unknown size unit "${m[2]}"`);
  const base = unit.endsWith('i') ? 1024 : 1000;
  const bytes = Math.floor(Number(m[1]) * base ** power);
  if (!Number.isSafeInteger(bytes)) throw new Error('size too large');
  return bytes;
}

/** packages-service's settings (Gitea's `[packages]` names). */
export const packagesSettingsSpec = {
  /** Gitea's `[packages] ENABLED`: when false every registry answers 404. */
  enabled: { section: 'packages', key: 'ENABLED', default: true, parse: parsers.bool },
  storagePath: packagesStoragePath,
  /** Gitea's `LIMIT_TOTAL_OWNER_SIZE`: the most bytes one owner's package files may take (-1: no limit). */
  limitTotalOwnerSize: { section: 'packages', key: 'LIMIT_TOTAL_OWNER_SIZE', default: -1, parse: parseSizeLimit },
  /** Gitea's `LIMIT_SIZE_GENERIC`: the largest generic package file (-1: no limit). */
  limitSizeGeneric: { section: 'packages', key: 'LIMIT_SIZE_GENERIC', default: -1, parse: parseSizeLimit },
  /** Gitea's `LIMIT_SIZE_NPM`: the largest npm package file (-1: no limit). */
  limitSizeNpm: { section: 'packages', key: 'LIMIT_SIZE_NPM', default: -1, parse: parseSizeLimit },
  /** Gitea's `LIMIT_SIZE_CONTAINER`: the largest container blob or manifest (-1: no limit). */
  limitSizeContainer: { section: 'packages', key: 'LIMIT_SIZE_CONTAINER', default: -1, parse: parseSizeLimit },
  /** How long unreferenced blobs and abandoned upload files are kept: longer than any upload, so none loses a blob. */
  cleanupGraceMs: { section: 'packages', key: 'CLEANUP_GRACE_PERIOD', default: 86_400_000, parse: parsers.durationMs },
  /** How often the storage cleanup runs. */
  cleanupIntervalMs: { section: 'packages', key: 'CLEANUP_INTERVAL', default: 3_600_000, parse: parsers.durationMs },
  /** `true`: anonymous visitors see nothing; `expensive`: not the costly pages (registries are not among them). */
  requireSigninView: {
    section: 'service',
    key: 'REQUIRE_SIGNIN_VIEW',
    default: false,
    parse: (raw: string) => raw.trim().toLowerCase() !== 'expensive' && parsers.bool(raw),
  },
  /** `enforced`: users without two-factor get the public's view of packages (no private ones, no uploads). */
  twoFactorAuth: {
    section: 'security',
    key: 'TWO_FACTOR_AUTH',
    default: '' as TwoFactorPolicy,
    parse: (raw: string) => parsers.oneOf('', 'enforced')(raw) as TwoFactorPolicy,
  },
  /** `[security] SECRET_KEY`: the container registry signs its bearer tokens (`/v2/token`) with a key derived from it. */
  secretKey: secretKeySetting,
  /** Address the internal HTTP endpoint binds (the gateway reaches it at `[cairn] PACKAGES_INTERNAL_URL`). */
  internalHost: { section: 'cairn', key: 'PACKAGES_INTERNAL_HOST', default: '127.0.0.1', parse: parsers.string },
};

export type PackagesSettings = SettingsOf<typeof packagesSettingsSpec>;

export const PACKAGES_SETTINGS = Symbol('PACKAGES_SETTINGS');

export function loadPackagesSettings(): PackagesSettings {
  return loadSettings(packagesSettingsSpec);
}
