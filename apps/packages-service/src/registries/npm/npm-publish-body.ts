import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { Base64Decoder, invalidAttachment } from './base64-stream.js';

/** Where the decoded tarball of a publish goes (the blob store), and how to take it back if the publish fails. */
export interface AttachmentSink<T> {
  /** Consumes `data` to its end (or rejects, e.g. with a 413); called at most once per body. */
  store(name: string, data: Readable): Promise<T>;
  /** Undoes a `store` that completed when the body turned out to be invalid after all. */
  discard(stored: T): Promise<void>;
}

export interface PublishBody<T> {
  /** The JSON document with the attachment's `data` replaced by `""`. */
  document: Record<string, unknown>;
  attachment?: { name: string; stored: T };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_DEPTH = 64;
const MAX_KEY_BYTES = 1024;

interface Frame {
  array: boolean;
  key: string | null;
  expectKey: boolean;
}

// The tarball is decoded while it streams into `sink.store`; the rest (≤ `maxMetadataBytes`) is parsed at the end.
export async function readPublishBody<T>(
  body: AsyncIterable<Buffer | string>,
  sink: AttachmentSink<T>,
  maxMetadataBytes: number,
): Promise<PublishBody<T>> {
  const scanner = new PublishBodyScanner(maxMetadataBytes);
  let attachment: { name: string; stream: PassThrough; stored: Promise<T> } | undefined;
  let stored: { name: string; stored: T } | undefined;
  let storeError: unknown;

  const write = async (data: Buffer) => {
    if (!attachment || data.length === 0) return;
    if (storeError !== undefined) throw storeError;
    if (!attachment.stream.write(data)) {
      await Promise.race([once(attachment.stream, 'drain'), attachment.stored.catch(() => undefined)]);
      if (storeError !== undefined) throw storeError;
    }
  };

  try {
    for await (const piece of body) {
      const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
      for (const event of scanner.scan(chunk)) {
        if (event.kind === 'start') {
          if (attachment) throw invalidAttachment('a publish carries exactly one attachment');
          const stream = new PassThrough();
          const started = sink.store(event.name, stream);
          started.catch((err: unknown) => {
            storeError = err;
          });
          attachment = { name: event.name, stream, stored: started };
        } else if (event.kind === 'data') {
          await write(event.data);
        } else {
          const current = attachment!;
          current.stream.end();
          stored = { name: current.name, stored: await current.stored };
        }
      }
      if (storeError !== undefined) throw storeError;
    }
    const document = scanner.finish();
    if (attachment && !stored) throw invalidAttachment('the body ended inside the attachment');
    return { document, ...(stored ? { attachment: stored } : {}) };
  } catch (err) {
    if (attachment && !stored) {
      attachment.stream.destroy(err instanceof Error ? err : new Error(String(err)));
      await attachment.stored.catch(() => undefined);
    }
    if (stored) await sink.discard(stored.stored).catch(() => undefined);
    throw err;
  }
}

type ScanEvent = { kind: 'start'; name: string } | { kind: 'data'; data: Buffer } | { kind: 'end' };

// Tracks just enough JSON structure to find `_attachments.<name>.data`; byte-wise is safe: the structure is ASCII.
class PublishBodyScanner {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private readonly stack: Frame[] = [];
  private inString = false;
  private escaped = false;
  private key: number[] | null = null;
  private decoder: Base64Decoder | null = null;

  constructor(private readonly maxMetadataBytes: number) {}

  *scan(chunk: Buffer): Generator<ScanEvent> {
    let keepFrom = 0;
    let i = 0;
    while (i < chunk.length) {
      if (this.decoder) {
        const decoded = this.scanAttachment(chunk, i);
        if (decoded.data.length) yield { kind: 'data', data: decoded.data };
        i = decoded.next;
        if (this.decoder) break; // the chunk ended inside the attachment
        keepFrom = i - 1; // keep the closing quote, so the document holds `"data":""`
        yield { kind: 'end' };
        continue;
      }
      const byte = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.closeString();
        if (this.key && this.inString) {
          if (this.key.length < MAX_KEY_BYTES) this.key.push(byte);
        }
        i++;
        continue;
      }
      i++;
      switch (byte) {
        case QUOTE: {
          const top = this.stack.at(-1);
          this.inString = true;
          if (top && !top.array && top.expectKey) {
            this.key = [];
          } else if (this.atAttachmentData()) {
            this.keep(chunk.subarray(keepFrom, i));
            keepFrom = i;
            this.inString = false;
            this.decoder = new Base64Decoder();
            yield { kind: 'start', name: this.stack[1].key! };
          }
          break;
        }
        case 0x7b: // {
        case 0x5b: // [
          if (this.stack.length >= MAX_DEPTH) throw DomainError.invalid(`package document nests deeper than ${MAX_DEPTH}`);
          this.stack.push({ array: byte === 0x5b, key: null, expectKey: byte === 0x7b });
          break;
        case 0x7d: // }
        case 0x5d: // ]
          if (!this.stack.pop()) throw invalidDocument('unbalanced brackets');
          break;
        case 0x3a: // :
          if (this.stack.at(-1)) this.stack.at(-1)!.expectKey = false;
          break;
        case 0x2c: {
          // ,
          const top = this.stack.at(-1);
          if (top && !top.array) top.expectKey = true;
          break;
        }
        default:
      }
    }
    if (!this.decoder) this.keep(chunk.subarray(keepFrom));
  }

  finish(): Record<string, unknown> {
    if (this.decoder || this.inString || this.stack.length) throw invalidDocument('the body ended early');
    let document: unknown;
    try {
      document = JSON.parse(Buffer.concat(this.kept).toString('utf8'));
    } catch (err) {
      throw invalidDocument((err as Error).message);
    }
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      throw invalidDocument('it is not a JSON object');
    }
    return document as Record<string, unknown>;
  }

  private closeString(): void {
    this.inString = false;
    if (this.key) {
      const top = this.stack.at(-1)!;
      top.key = this.key.length < MAX_KEY_BYTES ? Buffer.from(this.key).toString('utf8') : null;
      // A key is a JSON string: unescape it (escapes in keys are rare, but `"_attachments"` may be written escaped).
      if (top.key !== null && top.key.includes('\\')) top.key = safeJsonString(top.key);
      this.key = null;
    }
  }

  private atAttachmentData(): boolean {
    const [root, attachments, attachment] = this.stack;
    return (
      this.stack.length === 3 &&
      !root.array && root.key === '_attachments' &&
      !attachments.array && attachments.key !== null &&
      !attachment.array && attachment.key === 'data'
    );
  }

  private scanAttachment(chunk: Buffer, start: number): { data: Buffer; next: number } {
    const decoder = this.decoder!;
    const parts: Buffer[] = [];
    let i = start;
    let segment = i;
    // The string ends at the first quote: an escaped one (`\"`) is no base64 and fails below anyway.
    const quote = chunk.indexOf(QUOTE, start);
    const flush = (end: number) => {
      if (end > segment) parts.push(decoder.write(chunk.toString('latin1', segment, end)));
    };
    while (i < chunk.length) {
      if (this.escaped) {
        this.escaped = false;
        // JSON writers may escape "/" and wrap long base64 lines; nothing else belongs in base64 text.
        const byte = chunk[i];
        if (byte === 0x2f) parts.push(decoder.write('/'));
        else if (byte !== 0x6e && byte !== 0x72) throw invalidAttachment('it contains an escape that is not base64');
        segment = ++i;
        continue;
      }
      // Found natively rather than byte by byte: this string is the bulk of the body.
      const backslash = chunk.indexOf(BACKSLASH, i);
      if (backslash >= 0 && (quote < 0 || backslash < quote)) {
        flush(backslash);
        this.escaped = true;
        segment = i = backslash + 1;
        continue;
      }
      if (quote >= 0) {
        flush(quote);
        decoder.end();
        this.decoder = null;
        return { data: Buffer.concat(parts), next: quote + 1 };
      }
      i = chunk.length;
    }
    flush(i);
    return { data: Buffer.concat(parts), next: i };
  }

  private keep(bytes: Buffer): void {
    if (!bytes.length) return;
    this.keptBytes += bytes.length;
    if (this.keptBytes > this.maxMetadataBytes) {
      throw new DomainError(
        ErrorCode.CONTENT_TOO_LARGE,
        `package metadata exceeds ${this.maxMetadataBytes} bytes (not counting the tarball)`,
      );
    }
    this.kept.push(Buffer.from(bytes));
  }
}

function invalidDocument(why: string): DomainError {
  return DomainError.invalid(`package is invalid: the body is not a valid npm package document (${why})`);
}

function safeJsonString(raw: string): string | null {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return null;
  }
}
