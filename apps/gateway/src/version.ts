/** The version reported by `GET /api/v1/version` (Gitea-compatible clients parse it as semver). */
export const CAIRN_VERSION = '1.24.0+cairn-0.1.0';
