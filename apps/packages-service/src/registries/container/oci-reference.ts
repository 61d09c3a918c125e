// One home for the OCI name rules: everything from a `/v2/…` URL or a manifest passes through these first.

/** Spec: `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(\/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*`. */
const NAME_COMPONENT = '[a-z0-9]+(?:(?:\\.|_|__|-+)[a-z0-9]+)*';
const REPOSITORY_NAME = new RegExp(`^${NAME_COMPONENT}(?:/${NAME_COMPONENT})*$`);
/** Spec: a tag is at most 128 characters. */
const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;
/** The only algorithm stored (the blob store is addressed by sha256), as Gitea. */
const SHA256_DIGEST = /^sha256:[a-f0-9]{64}$/;
/** Image-spec's general digest grammar, to tell "unsupported algorithm" from "not a digest". */
const ANY_DIGEST = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/;
/** Clients keep `<host>/<name>` under 255 characters; longer names are refused before any lookup. */
export const MAX_REPOSITORY_NAME_LENGTH = 255;

/** The image part (after the owner) of a repository name; may contain `/`. */
export function isImageName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_REPOSITORY_NAME_LENGTH && REPOSITORY_NAME.test(name);
}

export function isTag(reference: string): boolean {
  return TAG.test(reference);
}

export function isDigest(value: string): boolean {
  return SHA256_DIGEST.test(value);
}

export function digestProblem(value: string): string | undefined {
  if (isDigest(value)) return undefined;
  if (ANY_DIGEST.test(value)) {
    return value.startsWith('sha256:')
      ? `digest "${truncate(value)}" is not 64 lowercase hexadecimal characters after "sha256:"`
      : `digest algorithm "${truncate(value.split(':')[0])}" is not supported (only sha256)`;
  }
  return `"${truncate(value)}" is not a digest (expected sha256:<64 hex>)`;
}

export function digestHex(digest: string): string {
  if (!isDigest(digest)) throw new Error(`not a sha256 digest: ${truncate(digest)}`);
  return digest.slice('sha256:'.length);
}

export function digestOfHex(sha256Hex: string): string {
  return `sha256:${sha256Hex}`;
}

export type ManifestReference = { kind: 'digest'; digest: string } | { kind: 'tag'; tag: string };

export function parseManifestReference(reference: string): ManifestReference | undefined {
  if (isDigest(reference)) return { kind: 'digest', digest: reference };
  if (isTag(reference)) return { kind: 'tag', tag: reference };
  return undefined;
}

/** Echoing client input in messages: bounded, so an error body stays small. */
export function truncate(value: string, max = 80): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
