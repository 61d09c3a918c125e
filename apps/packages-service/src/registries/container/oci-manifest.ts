// Only the manifest's shape is checked here; whether its references exist is the registry's next step.
import { OciError } from './oci-errors.js';
import { digestProblem } from './oci-reference.js';

export const MediaTypes = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerManifestList: 'application/vnd.docker.distribution.manifest.list.v2+json',
} as const;

/** As Gitea, a manifest can be at most 10 MiB (the spec asks registries to accept at least 4 MiB). */
export const MAX_MANIFEST_BYTES = 10 * 1024 * 1024;

/** Gitea's platform for an index entry that names none. */
export const DEFAULT_PLATFORM = 'linux/amd64';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
}

export interface ImageManifest {
  kind: 'image';
  mediaType: string;
  config: Descriptor;
  layers: Descriptor[];
}

export interface IndexEntry extends Descriptor {
  platform: string;
}

export interface ImageIndex {
  kind: 'index';
  mediaType: string;
  manifests: IndexEntry[];
}

export type ParsedManifest = ImageManifest | ImageIndex;

export function isImageManifestType(mediaType: string): boolean {
  const t = mediaType.toLowerCase();
  return t === MediaTypes.ociManifest || t === MediaTypes.dockerManifest;
}

export function isImageIndexType(mediaType: string): boolean {
  const t = mediaType.toLowerCase();
  return t === MediaTypes.ociIndex || t === MediaTypes.dockerManifestList;
}

/** The media types a `GET /v2/…/manifests/…` can answer with (also what clients list in `Accept`). */
export function isManifestType(mediaType: string): boolean {
  return isImageManifestType(mediaType) || isImageIndexType(mediaType);
}

/** Without a manifest `Content-Type` the document's `mediaType` decides; when both are given they must agree. */
export function parseManifest(body: Buffer, contentType: string | undefined): ParsedManifest {
  if (body.length > MAX_MANIFEST_BYTES) {
    throw new OciError('MANIFEST_INVALID', `manifest exceeds the maximum size of ${MAX_MANIFEST_BYTES} bytes`, undefined, 413);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    throw invalid('manifest is not valid JSON');
  }
  if (!isObject(doc)) throw invalid('manifest must be a JSON object');
  if (doc.schemaVersion !== 2) throw invalid('schemaVersion must be 2');

  const declared = doc.mediaType;
  if (declared !== undefined && typeof declared !== 'string') throw invalid('mediaType must be a string');
  const header = contentType?.split(';')[0].trim().toLowerCase();
  const headerType = header && isManifestType(header) ? header : undefined;
  if (headerType && declared && declared.toLowerCase() !== headerType) {
    throw invalid(`Content-Type "${headerType}" does not match the manifest's mediaType "${declared}"`);
  }
  const mediaType = headerType ?? declared?.toLowerCase() ?? inferMediaType(doc);
  if (!mediaType || !isManifestType(mediaType)) {
    throw invalid(`media type "${mediaType ?? header ?? ''}" is not an image manifest or image index`);
  }

  if (isImageManifestType(mediaType)) {
    if (!isObject(doc.config)) throw invalid('config descriptor is missing');
    if (!Array.isArray(doc.layers)) throw invalid('layers must be an array');
    return {
      kind: 'image',
      mediaType,
      config: descriptor(doc.config, 'config'),
      layers: doc.layers.map((layer, i) => descriptor(layer, `layers[${i}]`)),
    };
  }
  if (!Array.isArray(doc.manifests)) throw invalid('manifests must be an array');
  return {
    kind: 'index',
    mediaType,
    manifests: doc.manifests.map((entry, i) => {
      const d = descriptor(entry, `manifests[${i}]`);
      // As Gitea: an index lists image manifests (no nested indexes).
      if (!isImageManifestType(d.mediaType)) {
        throw invalid(`manifests[${i}] has media type "${d.mediaType}", expected an image manifest`);
      }
      return { ...d, platform: platformOf((entry as Record<string, unknown>).platform) };
    }),
  };
}

/** OCI 1.0 manifests may omit `mediaType`: the presence of `config`/`manifests` tells them apart. */
function inferMediaType(doc: Record<string, unknown>): string | undefined {
  if (isObject(doc.config) && Array.isArray(doc.layers)) return MediaTypes.ociManifest;
  if (Array.isArray(doc.manifests)) return MediaTypes.ociIndex;
  return undefined;
}

function descriptor(value: unknown, where: string): Descriptor {
  if (!isObject(value)) throw invalid(`${where} must be a descriptor object`);
  const { mediaType, digest, size } = value;
  if (typeof mediaType !== 'string' || mediaType.length === 0 || mediaType.length > 255) {
    throw invalid(`${where}.mediaType must be a non-empty string`);
  }
  if (typeof digest !== 'string') throw invalid(`${where}.digest must be a string`);
  const problem = digestProblem(digest);
  if (problem) throw new OciError('DIGEST_INVALID', `${where}: ${problem}`);
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    throw invalid(`${where}.size must be a non-negative integer`);
  }
  return { mediaType, digest, size };
}

function platformOf(value: unknown): string {
  if (!isObject(value)) return DEFAULT_PLATFORM;
  const { os, architecture, variant } = value;
  if (typeof os !== 'string' || typeof architecture !== 'string' || !os || !architecture) return DEFAULT_PLATFORM;
  const base = `${os}/${architecture}`;
  return typeof variant === 'string' && variant ? `${base}/${variant}` : base;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string): OciError {
  return new OciError('MANIFEST_INVALID', message);
}
