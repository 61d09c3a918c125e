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

/** The gateway's own settings (the common ones are in @cairn/platform). Read once at start; bad values refuse start. */
export const gatewaySettingsSpec = {
  twoFactorAuth: {
    section: 'security',
    key: 'TWO_FACTOR_AUTH',
    default: '' as '' | 'enforced',
    parse: (raw: string) => parsers.oneOf('', 'enforced')(raw) as '' | 'enforced',
  },
  requireSigninView: {
    section: 'service',
    key: 'REQUIRE_SIGNIN_VIEW',
    default: 'off' as RequireSigninView,
    parse: parseRequireSigninView,
  },
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
  /** Largest request body accepted (bytes) for JSON API routes. */
  maxBodyBytes: { section: 'server', key: 'MAX_BODY_SIZE', default: 32 * 1024 * 1024, parse: parsers.int(1024) },
};

export type GatewaySettings = SettingsOf<typeof gatewaySettingsSpec>;
export const GATEWAY_SETTINGS = Symbol('GATEWAY_SETTINGS');

export function loadGatewaySettings(): GatewaySettings {
  return loadSettings(gatewaySettingsSpec);
}
