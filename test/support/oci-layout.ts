/**
 * Builds OCI image layouts on disk (image-spec `image-layout.md`) for the container registry's tests with the real
 * `skopeo`: a small image (config + two gzipped tar layers) and an image index with two platforms, plus the `skopeo`
 * runner and a way to read a layout back (to compare what was pushed with what was pulled).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const OCI_CONFIG = 'application/vnd.oci.image.config.v1+json';
export const OCI_LAYER_GZIP = 'application/vnd.oci.image.layer.v1.tar+gzip';
const REF_NAME = 'org.opencontainers.image.ref.name';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { os: string; architecture: string; variant?: string };
  annotations?: Record<string, string>;
}

export interface BuiltImage {
  manifest: Descriptor;
  config: Descriptor;
  layers: Descriptor[];
  /** The manifest's bytes, as pushed. */
  manifestBytes: Buffer;
}

export interface BuiltIndex {
  index: Descriptor;
  indexBytes: Buffer;
  images: BuiltImage[];
}

export function sha256Digest(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Writes a blob into `<layout>/blobs/sha256/` and answers its descriptor. */
export function writeBlob(layout: string, mediaType: string, bytes: Buffer): Descriptor {
  const digest = sha256Digest(bytes);
  const dir = path.join(layout, 'blobs', 'sha256');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, digest.slice('sha256:'.length)), bytes);
  return { mediaType, digest, size: bytes.length };
}

/** One regular file in a ustar archive (enough for a layer; no external `tar` needed). */
export function tarWithFile(name: string, content: Buffer, mtime = 1_700_000_000): Buffer {
  const header = Buffer.alloc(512);
  const field = (offset: number, length: number, value: string) => header.write(value, offset, length, 'ascii');
  const octal = (offset: number, length: number, n: number) => field(offset, length, `${n.toString(8).padStart(length - 1, '0')}\0`);
  field(0, 100, name);
  octal(100, 8, 0o644);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, content.length);
  octal(136, 12, mtime);
  field(148, 8, ' '.repeat(8));
  field(156, 1, '0');
  field(257, 6, 'ustar\0');
  field(263, 2, '00');
  let sum = 0;
  for (const b of header) sum += b;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  const padding = Buffer.alloc((512 - (content.length % 512)) % 512);
  return Buffer.concat([header, content, padding, Buffer.alloc(1024)]);
}

/** A config + two layers + manifest for one platform; the content differs per `seed`, so images never share blobs by accident. */
export function writeImage(layout: string, seed: string, platform = { os: 'linux', architecture: 'amd64' }): BuiltImage {
  const tars = [1, 2].map((n) => tarWithFile(`layer${n}.txt`, Buffer.from(`${seed} layer ${n}\n`.repeat(50 * n))));
  const layers = tars.map((tar) => writeBlob(layout, OCI_LAYER_GZIP, gzipSync(tar)));
  const config = writeBlob(layout, OCI_CONFIG, Buffer.from(JSON.stringify({
    created: '2026-11-25T00:00:00Z',
    architecture: platform.architecture,
    os: platform.os,
    config: { Labels: { 'org.opencontainers.image.description': `cairn test image ${seed}` }, Cmd: ['/bin/true'] },
    rootfs: { type: 'layers', diff_ids: tars.map(sha256Digest) },
    history: [{ created_by: `layer 1 of ${seed}` }, { created_by: `layer 2 of ${seed}` }],
  })));
  const manifestBytes = Buffer.from(JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: { mediaType: config.mediaType, digest: config.digest, size: config.size },
    layers: layers.map((l) => ({ mediaType: l.mediaType, digest: l.digest, size: l.size })),
  }));
  const manifest = writeBlob(layout, OCI_MANIFEST, manifestBytes);
  return { manifest, config, layers, manifestBytes };
}

function writeLayoutIndex(layout: string, entries: Descriptor[]): void {
  mkdirSync(layout, { recursive: true });
  writeFileSync(path.join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(path.join(layout, 'index.json'), JSON.stringify({ schemaVersion: 2, mediaType: OCI_INDEX, manifests: entries }));
}

/** `<layout>` holding one single-platform image under `tag` (`oci:<layout>:<tag>` for skopeo). */
export function buildImageLayout(layout: string, tag: string, seed = tag): BuiltImage {
  const image = writeImage(layout, seed);
  writeLayoutIndex(layout, [{ ...image.manifest, annotations: { [REF_NAME]: tag } }]);
  return image;
}

/**
 * `<layout>` holding an image under `tag` whose one layer declares `mediaType` (an attacker's `text/html`, say) and
 * holds `payload` as it is: what the registry must never serve as active content on its origin.
 */
export function buildLayoutWithLayer(layout: string, tag: string, mediaType: string, payload: Buffer): BuiltImage {
  const layer = writeBlob(layout, mediaType, payload);
  const config = writeBlob(layout, OCI_CONFIG, Buffer.from(JSON.stringify({
    architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [layer.digest] },
  })));
  const manifestBytes = Buffer.from(JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: { mediaType: config.mediaType, digest: config.digest, size: config.size },
    layers: [{ mediaType: layer.mediaType, digest: layer.digest, size: layer.size }],
  }));
  const manifest = writeBlob(layout, OCI_MANIFEST, manifestBytes);
  writeLayoutIndex(layout, [{ ...manifest, annotations: { [REF_NAME]: tag } }]);
  return { manifest, config, layers: [layer], manifestBytes };
}

/** `<layout>` holding an image index for linux/amd64 and linux/arm64 under `tag`. */
export function buildIndexLayout(layout: string, tag: string, seed = tag): BuiltIndex {
  const platforms = [
    { os: 'linux', architecture: 'amd64' },
    { os: 'linux', architecture: 'arm64', variant: 'v8' },
  ];
  const images = platforms.map((p) => writeImage(layout, `${seed}-${p.architecture}`, p));
  const indexBytes = Buffer.from(JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_INDEX,
    manifests: images.map((img, i) => ({ ...img.manifest, platform: platforms[i] })),
  }));
  const index = writeBlob(layout, OCI_INDEX, indexBytes);
  writeLayoutIndex(layout, [{ ...index, annotations: { [REF_NAME]: tag } }]);
  return { index, indexBytes, images };
}

/** The bytes of a blob in a layout. */
export function readLayoutBlob(layout: string, digest: string): Buffer {
  return readFileSync(path.join(layout, 'blobs', 'sha256', digest.slice('sha256:'.length)));
}

export function hasLayoutBlob(layout: string, digest: string): boolean {
  return existsSync(path.join(layout, 'blobs', 'sha256', digest.slice('sha256:'.length)));
}

/** The descriptor `index.json` names for `tag`. */
export function layoutEntry(layout: string, tag: string): Descriptor | undefined {
  const index = JSON.parse(readFileSync(path.join(layout, 'index.json'), 'utf8')) as { manifests: Descriptor[] };
  return index.manifests.find((m) => m.annotations?.[REF_NAME] === tag);
}

export interface SkopeoResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function skopeoAvailable(): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(path.join(dir, 'skopeo')));
}

/**
 * Runs `skopeo` with an argument vector and no policy file or credentials from the machine (`--insecure-policy`
 * accepts any image: the tests check content by digest themselves; `REGISTRY_AUTH_FILE` points nowhere useful).
 */
export function skopeo(args: string[], opts: { timeoutMs?: number; authFile?: string } = {}): Promise<SkopeoResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('skopeo', ['--insecure-policy', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REGISTRY_AUTH_FILE: opts.authFile ?? '/dev/null/none.json' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}
