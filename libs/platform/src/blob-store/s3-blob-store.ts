import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand, CopyObjectCommand, CreateBucketCommand, ListMultipartUploadsCommand, PutObjectCommand, DeleteObjectCommand, HeadBucketCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client,
  S3ServiceException, type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { SHA256_HEX, attachmentDisposition, checkedSha256, type BlobDigests, type BlobStore, type ByteRange, type StagedBlob, type StoredBlob } from './blob-store.js';
import { SLAB_BYTES, SlabDigester } from './slab-digester.js';

/** Where an S3-compatible store keeps its objects (Gitea's `[storage] MINIO_*` settings). */
export interface S3Location {
  /** `host:port`, as Gitea's `MINIO_ENDPOINT`. */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  /** The region (`MINIO_LOCATION`). */
  location: string;
  useSsl: boolean;
  /** A key prefix inside the bucket (`MINIO_BASE_PATH`), e.g. `packages/`. */
  basePath: string;
  /** `SERVE_DIRECT`: downloads are redirected to presigned URLs instead of passing through Cairn. */
  serveDirect?: boolean;
}

/** How long a presigned download URL stays valid (Gitea's is 5 minutes too). */
const DIRECT_URL_SECONDS = 300;

/** Multipart part size: an upload holds at most `PART_BYTES × PARTS_IN_FLIGHT` in memory, whatever its size. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;
/**
 * Beside each upload under way, an empty `<key>.uploading` object: a process killed mid-upload leaves no object, only
 * an unfinished multipart upload, which S3 servers do not all list by prefix (MinIO lists them by exact key only). The
 * marker names it for the sweep.
 */
const UPLOADING = '.uploading';
/** Passes bytes through unchanged while counting them against a limit and computing Gitea's four digests. */
class DigestingStream extends Transform {
  digests: BlobDigests | null = null;
  readonly digester: SlabDigester;

  constructor(maxBytes: number) {
    super({ highWaterMark: SLAB_BYTES });
    this.digester = new SlabDigester(maxBytes);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.digester.absorb(chunk).then(() => done(null, chunk), done);
  }

  override _flush(done: TransformCallback): void {
    this.digester.finish().then((digests) => {
      this.digests = digests;
      done();
    }, done);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    void this.digester.abandon().then(() => done(err));
  }
}

function isNotFound(err: unknown): boolean {
  if (!(err instanceof S3ServiceException)) return false;
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404;
}

/**
 * {@link BlobStore} on an S3-compatible bucket (`[storage] STORAGE_TYPE = minio`), through the AWS SDK:
 * `<base>blobs/<aa>/<bb>/<sha256>` and `<base>tmp/<uuid>`. An upload streams into a temporary object by multipart
 * upload and is copied to its address on commit (S3 has no rename); chunked OCI uploads are still assembled in a local
 * folder ({@link tempDir}), as Gitea does.
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  readonly bucket: string;
  private readonly base: string;
  private readonly serveDirect: boolean;

  constructor(
    location: S3Location,
    readonly tempDir: string,
  ) {
    const config: S3ClientConfig = {
      endpoint: `${location.useSsl ? 'https' : 'http'}://${location.endpoint}`,
      region: location.location,
      credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
      forcePathStyle: true,
    };
    this.client = new S3Client(config);
    this.bucket = location.bucket;
    this.serveDirect = location.serveDirect ?? false;
    this.base = location.basePath && !location.basePath.endsWith('/') ? `${location.basePath}/` : location.basePath;
    mkdirSync(tempDir, { recursive: true });
  }

  /** Creates the bucket when it does not exist (another replica creating it at the same time is fine). */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      try {
        await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
      } catch (createErr) {
        const name = (createErr as Error).name;
        if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw createErr;
      }
    }
  }

  /** The object key of a blob; throws on anything that is not a sha256. */
  blobKey(sha256: string): string {
    checkedSha256(sha256);
    return `${this.base}blobs/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  }

  private tempKey(): string {
    return `${this.base}tmp/${randomUUID()}`;
  }

  async tempPath(): Promise<string> {
    await mkdir(this.tempDir, { recursive: true });
    return path.join(this.tempDir, `${randomUUID()}.part`);
  }

  async stage(content: Readable, options: { maxBytes: number }): Promise<StagedBlob> {
    const key = this.tempKey();
    // A client abort during the marker's PUT must find a listener; the pipeline below then sees the stream destroyed.
    const early = () => undefined;
    content.on('error', early);
    const marker = `${key}${UPLOADING}`;
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: marker, Body: '' }));
    const digesting = new DigestingStream(options.maxBytes);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: digesting },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
    });
    try {
      await Promise.all([pipeline(content, digesting), upload.done()]);
    } catch (err) {
      content.off('error', early);
      digesting.destroy();
      await upload.abort().catch(() => undefined);
      await this.deleteKey(key).catch(() => undefined);
      await this.deleteKey(marker).catch(() => undefined);
      throw err;
    }
    content.off('error', early);
    await this.deleteKey(marker);
    return { ...digesting.digests!, size: digesting.digester.bytes, staging: key };
  }

  async commit(staged: StagedBlob): Promise<StoredBlob> {
    const { staging, ...blob } = staged;
    // Bytes stored before need no second copy: commit runs under the blob's lock, so that copy is not being retired.
    if ((await this.size(blob.sha256)) !== blob.size) await this.copyKey(staging, this.blobKey(blob.sha256));
    await this.deleteKey(staging);
    return blob;
  }

  async discard(staged: StagedBlob): Promise<void> {
    await this.deleteKey(staged.staging);
  }

  async put(content: Readable, options: { maxBytes: number }): Promise<StoredBlob> {
    return this.commit(await this.stage(content, options));
  }

  async retire(sha256: string): Promise<string | null> {
    const trash = this.tempKey();
    try {
      await this.copyKey(this.blobKey(sha256), trash);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
    await this.deleteKey(this.blobKey(sha256));
    return trash;
  }

  async dropRetired(handle: string): Promise<void> {
    await this.deleteKey(handle);
  }

  async open(sha256: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.blobKey(sha256),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }));
      return answer.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async directUrl(sha256: string, presentAs: { filename: string; contentType: string }): Promise<string | null> {
    if (!this.serveDirect) return null;
    return getSignedUrl(this.client, new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.blobKey(sha256),
      ResponseContentType: presentAs.contentType,
      ResponseContentDisposition: attachmentDisposition(presentAs.filename),
    }), { expiresIn: DIRECT_URL_SECONDS });
  }

  async size(sha256: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.blobKey(sha256) }));
      return head.ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async remove(sha256: string): Promise<void> {
    await this.deleteKey(this.blobKey(sha256));
  }

  async *storedBefore(olderThan: Date): AsyncGenerator<string> {
    for await (const object of this.list(`${this.base}blobs/`)) {
      const name = object.key.slice(object.key.lastIndexOf('/') + 1);
      if (object.lastModified < olderThan && SHA256_HEX.test(name)) yield name;
    }
  }

  async removeStaleTemp(olderThan: Date): Promise<number> {
    let removed = 0;
    for await (const object of this.list(`${this.base}tmp/`)) {
      if (object.lastModified >= olderThan) continue;
      if (object.key.endsWith(UPLOADING)) await this.abortUploads(object.key.slice(0, -UPLOADING.length));
      await this.deleteKey(object.key);
      removed++;
    }
    for (const name of await readdir(this.tempDir).catch(() => [] as string[])) {
      const file = path.join(this.tempDir, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtime < olderThan) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  private async *list(prefix: string): AsyncGenerator<{ key: string; lastModified: Date }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const o of page.Contents ?? []) if (o.Key && o.LastModified) yield { key: o.Key, lastModified: o.LastModified };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Aborts the unfinished multipart uploads of `key` (listed by exact key: MinIO lists no others). */
  private async abortUploads(key: string): Promise<void> {
    const page = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: key }));
    for (const u of page.Uploads ?? []) {
      if (u.Key === key && u.UploadId) {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: u.UploadId }));
      }
    }
  }

  private async copyKey(from: string, to: string): Promise<void> {
    await this.client.send(new CopyObjectCommand({
      Bucket: this.bucket,
      Key: to,
      CopySource: `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
    }));
  }

  private async deleteKey(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
