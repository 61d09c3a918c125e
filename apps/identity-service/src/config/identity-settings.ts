import { loadSettings, parsers, secretKeySetting, type SettingsOf } from '@cairn/platform';


/** scrypt cost parameters (stored with every hash, so they can be raised later without breaking old hashes). */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 32768, r: 8, p: 1 };

/** `[security] PASSWORD_HASH_ALGO`: `scrypt` (defaults) or Gitea-style `scrypt$N$r$p`. */
export function parsePasswordHashAlgo(raw: string): ScryptParams {
  const v = raw.trim().toLowerCase();
  if (v === 'scrypt') return DEFAULT_SCRYPT_PARAMS;
  const m = /^scrypt\$(\d+)\$(\d+)\$(\d+)$/.exec(v);
  if (!m) throw new Error('expected scrypt or scrypt$N$r$p (e.g. scrypt$32768$8$1)');
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (N < 1024 || N > 1_048_576 || (N & (N - 1)) !== 0) throw new Error('N must be a power of two between 1024 and 1048576');
  if (r < 1 || r > 32 || p < 1 || p > 16) throw new Error('r must be 1..32 and p 1..16');
  return { N, r, p };
}

const keySize = (name: string, def: number) => ({
  section: 'ssh.minimum_key_sizes',
  key: name,
  default: def,
  parse: parsers.int(-1, 65536),
});

/** identity-service's own settings (Gitea's names). */
export const identitySettingsSpec = {
  /** Key material for encrypting two-factor secrets at rest. */
  secretKey: secretKeySetting,
  /** At most one `last_used_at` write per token (and per SSH key) per this window; 0 writes on every use. */
  tokenLastUsedUpdateIntervalMs: {
    section: 'security',
    key: 'TOKEN_LAST_USED_UPDATE_INTERVAL',
    default: 60_000,
    parse: parsers.durationMs,
  },
  /** Password KDF parameters for new hashes. */
  passwordHashParams: {
    section: 'security',
    key: 'PASSWORD_HASH_ALGO',
    default: DEFAULT_SCRYPT_PARAMS,
    parse: parsePasswordHashAlgo,
  },
  /** Failed sign-ins allowed per account in `LOGIN_FAILURE_WINDOW`, then 429 with `Retry-After`; 0 turns it off. */
  loginMaxFailuresPerAccount: {
    section: 'security',
    key: 'LOGIN_MAX_FAILURES_PER_ACCOUNT',
    default: 10,
    parse: parsers.int(0, 1_000_000),
  },
  /** The same per client source address (higher: several people may share one address). 0 turns it off. */
  loginMaxFailuresPerAddress: {
    section: 'security',
    key: 'LOGIN_MAX_FAILURES_PER_ADDRESS',
    default: 100,
    parse: parsers.int(0, 1_000_000),
  },
  /** The window failed sign-ins are counted in; it starts at the first failure. */
  loginFailureWindowMs: {
    section: 'security',
    key: 'LOGIN_FAILURE_WINDOW',
    default: 300_000,
    parse: parsers.durationMs,
  },
  /** Gitea's `[service] DISABLE_REGISTRATION`: `true` refuses self sign-up (403); the gateway hides its link. */
  disableRegistration: { section: 'service', key: 'DISABLE_REGISTRATION', default: false, parse: parsers.bool },
  /** `[ssh] MINIMUM_KEY_SIZE_CHECK`: enforce `[ssh.minimum_key_sizes]`. */
  minimumKeySizeCheck: { section: 'ssh', key: 'MINIMUM_KEY_SIZE_CHECK', default: true, parse: parsers.bool },
  /** Minimum sizes in bits; -1 refuses the key type altogether (Gitea's defaults; DSA is not allowed). */
  minKeySizeEd25519: keySize('ED25519', 256),
  minKeySizeEcdsa: keySize('ECDSA', 256),
  minKeySizeRsa: keySize('RSA', 3071),
  minKeySizeDsa: keySize('DSA', -1),
};

export type IdentitySettings = SettingsOf<typeof identitySettingsSpec>;

export const IDENTITY_SETTINGS = Symbol('IDENTITY_SETTINGS');

export function loadIdentitySettings(env: NodeJS.ProcessEnv = process.env): IdentitySettings {
  return loadSettings(identitySettingsSpec, env);
}

export function minimumKeySizes(s: IdentitySettings): Record<string, number> {
  return { ed25519: s.minKeySizeEd25519, ecdsa: s.minKeySizeEcdsa, rsa: s.minKeySizeRsa, dsa: s.minKeySizeDsa };
}
