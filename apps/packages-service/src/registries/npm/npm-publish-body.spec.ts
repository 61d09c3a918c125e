import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readPublishBody, type AttachmentSink } from './npm-publish-body.js';

/** A sink that collects what it is given, optionally slowly (to exercise back-pressure). */
function collectingSink(options: { failAfter?: number; slow?: boolean } = {}) {
  const state = { stored: [] as Buffer[], discarded: [] as Buffer[], destroyed: false, names: [] as string[] };
  const sink: AttachmentSink<Buffer> = {
    async store(name, data) {
      state.names.push(name);
      const parts: Buffer[] = [];
      let size = 0;
      try {
        for await (const part of data as AsyncIterable<Buffer>) {
          size += part.length;
          if (options.failAfter !== undefined && size > options.failAfter) throw new Error('too large for the sink');
          if (options.slow) await new Promise((resolve) => setImmediate(resolve));
          parts.push(part);
        }
      } catch (err) {
        state.destroyed = true;
        throw err;
      }
      const all = Buffer.concat(parts);
      state.stored.push(all);
      return all;
    },
    async discard(stored) {
      state.discarded.push(stored);
    },
  };
  return { sink, state };
}

function publishBody(tarball: Buffer, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    _id: '@scope/pkg',
    name: '@scope/pkg',
    description: 'ünïcödé description',
    'dist-tags': { latest: '1.0.0' },
    versions: { '1.0.0': { name: '@scope/pkg', version: '1.0.0', dist: { integrity: 'sha512-x' } } },
    access: null,
    _attachments: { '@scope/pkg-1.0.0.tgz': { content_type: 'application/octet-stream', data: tarball.toString('base64'), length: tarball.length } },
    ...extra,
  });
}

/** Splits text into pieces of `size` bytes (a multi-byte character may be cut, as on the wire). */
function chunked(text: string, size: number): Readable {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return Readable.from(pieces);
}

describe('readPublishBody', () => {
  it.each([1, 3, 7, 64, 1 << 20])('decodes the attachment while streaming, in pieces of %i bytes', async (size) => {
    const tarball = randomBytes(10_000 + size);
    const { sink, state } = collectingSink();
    const result = await readPublishBody(chunked(publishBody(tarball), size), sink, 1 << 20);
    expect(result.attachment?.name).toBe('@scope/pkg-1.0.0.tgz');
    expect(result.attachment?.stored.equals(tarball)).toBe(true);
    expect(state.stored).toHaveLength(1);
    const attachments = result.document._attachments as Record<string, { data: string; length: number }>;
    expect(attachments['@scope/pkg-1.0.0.tgz']).toEqual({ content_type: 'application/octet-stream', data: '', length: tarball.length });
    expect(result.document.description).toBe('ünïcödé description');
  });

  it('keeps what follows the attachment and honours a slow consumer', async () => {
    const tarball = randomBytes(200_000);
    const { sink } = collectingSink({ slow: true });
    const body = `{"_attachments":{"a.tgz":{"data":"${tarball.toString('base64')}"}},"name":"after"}`;
    const result = await readPublishBody(chunked(body, 4096), sink, 1024);
    expect(result.attachment?.stored.equals(tarball)).toBe(true);
    expect(result.document.name).toBe('after');
  });

  it('accepts base64 with escaped slashes and escaped line breaks, as some JSON writers send it', async () => {
    const tarball = Buffer.from([0xff, 0xff, 0xfe, 0x00, 0x01, 0x02, 0xfb, 0xff]);
    const encoded = tarball.toString('base64'); // contains "/"
    expect(encoded).toContain('/');
    const escaped = `${encoded.slice(0, 4)}\\n${encoded.slice(4)}`.replaceAll('/', '\\/');
    const { sink } = collectingSink();
    const result = await readPublishBody(chunked(`{"_attachments":{"a":{"data":"${escaped}"}}}`, 2), sink, 1024);
    expect(result.attachment?.stored.equals(tarball)).toBe(true);
  });

  it('finds an attachment whose key is written with escapes', async () => {
    const { sink } = collectingSink();
    const result = await readPublishBody(chunked('{"_attach\\u006dents":{"a":{"data":"QUJD"}}}', 5), sink, 1024);
    expect(result.attachment?.stored.toString()).toBe('ABC');
  });

  it('leaves "data" strings elsewhere in the document alone', async () => {
    const { sink, state } = collectingSink();
    const result = await readPublishBody(chunked('{"versions":{"1.0.0":{"data":"not base64!"}},"data":"x"}', 4), sink, 1024);
    expect(result.attachment).toBeUndefined();
    expect(state.names).toEqual([]);
    expect(result.document.data).toBe('x');
  });

  it.each([
    ['a character that is not base64', '{"_attachments":{"a":{"data":"QU*D"}}}', /not base64/],
    ['data after the padding', '{"_attachments":{"a":{"data":"QQ==QUJD"}}}', /padding/],
    ['a length that is not a multiple of 4', '{"_attachments":{"a":{"data":"QUJDR"}}}', /multiple of 4/],
    ['an escape that is not base64', '{"_attachments":{"a":{"data":"QU\\tJD"}}}', /escape/],
    ['two attachments', '{"_attachments":{"a":{"data":"QUJD"},"b":{"data":"QUJD"}}}', /exactly one attachment/],
  ])('refuses %s with a 400 and keeps nothing', async (_why, body, message) => {
    const { sink, state } = collectingSink();
    await expect(readPublishBody(chunked(body, 3), sink, 1024)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message });
    expect(state.stored.length).toBe(state.discarded.length);
  });

  it.each([
    ['broken JSON', '{"name": }'],
    ['a body that ends early', '{"_attachments":{"a":{"data":"QUJD'],
    ['unbalanced brackets', '}'],
    ['an array', '[1,2]'],
    ['an empty body', ''],
  ])('refuses %s with a 400', async (_why, body) => {
    const { sink } = collectingSink();
    await expect(readPublishBody(chunked(body, 2), sink, 1024)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('discards a stored attachment when the document turns out to be broken after it', async () => {
    const { sink, state } = collectingSink();
    await expect(
      readPublishBody(chunked('{"_attachments":{"a":{"data":"QUJD"}},"name": nope}', 4), sink, 1024),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(state.stored).toHaveLength(1);
    expect(state.discarded).toEqual(state.stored);
  });

  it('passes the sink\'s failure (e.g. a size limit) on and stops reading', async () => {
    const { sink, state } = collectingSink({ failAfter: 1000 });
    let pulled = 0;
    const tarball = randomBytes(100_000);
    const pieces = chunked(publishBody(tarball), 512).toArray();
    async function* source() {
      for (const piece of await pieces) {
        await new Promise((resolve) => setImmediate(resolve)); // pieces arrive from the network, one event each
        pulled += 1;
        yield piece as Buffer;
      }
    }
    await expect(readPublishBody(source(), sink, 1 << 20)).rejects.toThrow('too large for the sink');
    expect(state.destroyed).toBe(true);
    expect(pulled).toBeLessThan((await pieces).length / 2);
  });

  it('refuses metadata beyond its limit with a 413 while the tarball itself does not count', async () => {
    const { sink } = collectingSink();
    const small = publishBody(randomBytes(50_000));
    await expect(readPublishBody(chunked(small, 1000), sink, 2048)).resolves.toBeDefined();
    const big = publishBody(Buffer.alloc(10), { readme: 'r'.repeat(5000) });
    await expect(readPublishBody(chunked(big, 1000), sink, 2048)).rejects.toMatchObject({ code: 'CONTENT_TOO_LARGE' });
  });
});

describe('readPublishBody with every slash escaped', () => {
  it('decodes a large attachment whose slashes are all written as \\/ (as PHP and others encode JSON)', async () => {
    const tarball = Buffer.alloc(300_000, 0xff); // base64 "////…"
    const escaped = tarball.toString('base64').replaceAll('/', '\\/');
    const { sink } = collectingSink();
    const result = await readPublishBody(chunked(`{"_attachments":{"a":{"data":"${escaped}"}}}`, 65_536), sink, 1024);
    expect(result.attachment?.stored.equals(tarball)).toBe(true);
  });
});
