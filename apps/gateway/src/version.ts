// Gitea clients switch behaviour on this (Go SDK, Renovate): the Gitea API level Cairn implements, with Cairn's own
// version as SemVer build metadata, which both parsers accept and ignore when comparing.
export const GITEA_API_LEVEL = '1.25.0';
export const CAIRN_RELEASE = '0.1.0';
export const CAIRN_VERSION = `${GITEA_API_LEVEL}+cairn-${CAIRN_RELEASE}`;
