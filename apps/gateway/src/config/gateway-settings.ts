import type { TwoFactorPolicy } from '@cairn/contracts';
import { loadSettings, parsers, type SettingsOf } from '@cairn/platform';

/** `[service] REQUIRE_SIGNIN_VIEW`: a boolean, or `expensive` (anonymous visitors may not open costly web pages). */
export type RequireSigninView = 'off' | 'strict' | 'expensive';

function parseRequireSigninView(raw: string): RequireSigninView {
  if (raw.trim().toLowerCase() === 'expensive') return 'expensive';
  try {
    return parsers.bool(raw) ? 'strict' : 'off';
  } catch {
    throw new Error('expected true, false or expensive');
  }
}

/** The gateway's own settings (the common ones are in @cairn/platform). */
export const gatewaySettingsSpec = {
  /** `enforced`: users without two-factor get no private data (404s, filtered lists, admin 403), told how to enrol. */
  twoFactorAuth: {
    section: 'security',
    key: 'TWO_FACTOR_AUTH',
    default: '' as TwoFactorPolicy,
    parse: (raw: string) => parsers.oneOf('', 'enforced')(raw) as TwoFactorPolicy,
  },
  /** Proxies whose `X-Forwarded-For` names the client (`*`: any); else all clients share the proxy's sign-in count. */
  trustedProxies: {
    section: 'security',
    key: 'REVERSE_PROXY_TRUSTED_PROXIES',
    default: ['127.0.0.0/8', '::1/128'],
    parse: parsers.list,
  },
  /**
  * `true`: anonymous visitors see nothing; `expensive`: code, raw, history, blame, archive, issue and pull request
  * pages send them to sign in (the repository home, the API and git stay open, as in Gitea).
  */
  requireSigninView: {
    section: 'service',
    key: 'REQUIRE_SIGNIN_VIEW',
    default: 'off' as RequireSigninView,
    parse: parseRequireSigninView,
  },
  /** `true` refuses self sign-up (identity-service enforces it); the gateway says so and omits the Register link. */
  disableRegistration: { section: 'service', key: 'DISABLE_REGISTRATION', default: false, parse: parsers.bool },
  defaultPagingNum: { section: 'api', key: 'DEFAULT_PAGING_NUM', default: 30, parse: parsers.int(1, 1000) },
  maxResponseItems: { section: 'api', key: 'MAX_RESPONSE_ITEMS', default: 50, parse: parsers.int(1, 10000) },
  defaultGitTreesPerPage: {
    section: 'api',
    key: 'DEFAULT_GIT_TREES_PER_PAGE',
    default: 1000,
    parse: parsers.int(1, 100000),
  },
  defaultMaxBlobSize: {
    section: 'api',
    key: 'DEFAULT_MAX_BLOB_SIZE',
    default: 10 * 1024 * 1024,
    parse: parsers.int(0, Number.MAX_SAFE_INTEGER),
  },
  defaultMaxResponseSize: {
    section: 'api',
    key: 'DEFAULT_MAX_RESPONSE_SIZE',
    default: 100 * 1024 * 1024,
    parse: parsers.int(0, Number.MAX_SAFE_INTEGER),
  },
  enableSwagger: { section: 'api', key: 'ENABLE_SWAGGER', default: true, parse: parsers.bool },
  /** Largest body (bytes) on API routes, and on every route without credentials; checked before reading (413). */
  maxBodyBytes: { section: 'server', key: 'MAX_BODY_SIZE', default: 1024 * 1024, parse: parsers.int(1024) },
  /** Largest file (MB) the contents routes accept: their body limit is this, base64 encoded, plus `MAX_BODY_SIZE`. */
  uploadFileMaxMb: { section: 'repository.upload', key: 'FILE_MAX_SIZE', default: 50, parse: parsers.int(1, 4096) },
  /** Address the HTTP server binds (`0.0.0.0`: every interface; `127.0.0.1` behind a local reverse proxy). */
  httpAddr: { section: 'server', key: 'HTTP_ADDR', default: '0.0.0.0', parse: parsers.string },
  /** Serve Prometheus metrics at `/metrics` (off by default, as in Gitea). */
  metricsEnabled: { section: 'metrics', key: 'ENABLED', default: false, parse: parsers.bool },
  /** When set, `/metrics` requires `Authorization: Bearer <TOKEN>` (as in Gitea); empty: anyone who reaches it. */
  metricsToken: { section: 'metrics', key: 'TOKEN', default: '', parse: parsers.string },
  /** How long a completed request's answer is kept for replay under its `Idempotency-Key`. */
  idempotencyTtlMs: { section: 'api', key: 'IDEMPOTENCY_TTL', default: 24 * 3600_000, parse: parsers.durationMs },
};

export type GatewaySettings = SettingsOf<typeof gatewaySettingsSpec>;
export const GATEWAY_SETTINGS = Symbol('GATEWAY_SETTINGS');

export function loadGatewaySettings(): GatewaySettings {
  return loadSettings(gatewaySettingsSpec);
}
