/**
 * The version reported by `GET /api/v1/version`. Gitea clients switch behaviour on it (the Go SDK with
 * hashicorp/go-version, Renovate with node-semver's `gte`), so it is the Gitea API level Cairn implements — 1.25
 * (`since`/`until` filters, 201 on variable create) — with Cairn's own version as SemVer build metadata, which both
 * parsers accept and ignore when comparing.
 */
export const GITEA_API_LEVEL = '1.25.0';
export const CAIRN_RELEASE = '0.1.0';
export const CAIRN_VERSION = `${GITEA_API_LEVEL}+cairn-${CAIRN_RELEASE}`;
