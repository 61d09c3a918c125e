/** Gitea's `container.Metadata` (same JSON names). */
export interface IndexManifestMetadata {
  platform: string;
  digest: string;
  size: number;
}

export interface ContainerMetadata {
  type: 'oci';
  is_tagged: boolean;
  platform?: string;
  description?: string;
  authors?: string[];
  licenses?: string;
  project_url?: string;
  repository_url?: string;
  documentation_url?: string;
  labels?: Record<string, string>;
  image_layers?: string[];
  manifests?: IndexManifestMetadata[];
}

/** Configs above this are not read for metadata (the push still succeeds; the metadata stays minimal). */
export const MAX_CONFIG_BYTES_FOR_METADATA = 4 * 1024 * 1024;

const LABEL_FIELDS = {
  'org.opencontainers.image.description': 'description',
  'org.opencontainers.image.licenses': 'licenses',
  'org.opencontainers.image.url': 'project_url',
  'org.opencontainers.image.source': 'repository_url',
  'org.opencontainers.image.documentation': 'documentation_url',
} as const;

/** Metadata from an image config's JSON; a config that is not JSON (e.g. an artifact's) gives the minimal form. */
export function imageMetadata(config: Buffer | undefined, isTagged: boolean): ContainerMetadata {
  const meta: ContainerMetadata = { type: 'oci', is_tagged: isTagged };
  let doc: Record<string, unknown>;
  try {
    const parsed: unknown = config ? JSON.parse(config.toString('utf8')) : undefined;
    if (typeof parsed !== 'object' || parsed === null) return meta;
    doc = parsed as Record<string, unknown>;
  } catch {
    return meta;
  }
  if (typeof doc.os === 'string' && typeof doc.architecture === 'string') {
    meta.platform = `${doc.os}/${doc.architecture}${typeof doc.variant === 'string' && doc.variant ? `/${doc.variant}` : ''}`;
  }
  const inner = doc.config as Record<string, unknown> | undefined;
  const labels = inner && typeof inner.Labels === 'object' && inner.Labels !== null ? inner.Labels as Record<string, unknown> : {};
  const stringLabels = Object.fromEntries(Object.entries(labels).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  if (Object.keys(stringLabels).length > 0) meta.labels = stringLabels;
  for (const [label, field] of Object.entries(LABEL_FIELDS)) {
    if (stringLabels[label]) meta[field] = stringLabels[label];
  }
  if (stringLabels['org.opencontainers.image.authors']) {
    meta.authors = stringLabels['org.opencontainers.image.authors'].split(',').map((a) => a.trim()).filter(Boolean);
  }
  if (Array.isArray(doc.history)) {
    meta.image_layers = doc.history
      .map((h) => (typeof h === 'object' && h !== null ? (h as Record<string, unknown>).created_by : undefined))
      .filter((c): c is string => typeof c === 'string');
  }
  return meta;
}

export function indexMetadata(manifests: IndexManifestMetadata[], isTagged: boolean): ContainerMetadata {
  return { type: 'oci', is_tagged: isTagged, manifests };
}
