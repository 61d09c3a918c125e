import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  OCTET_STREAM, TEXT_PLAIN, USER_CONTENT_CSP, imageTypeForName, looksLikeText, peekHead, secureUserContentHeaders, sniffSafeImage, userContentType,
} from './user-content.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const HTML = Buffer.from('<html><script>alert(document.cookie)</script></html>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

describe('userContentType', () => {
  it('never lets a declared active type through on downloads', () => {
    for (const declared of ['text/html', 'text/html; charset=utf-8', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'application/javascript', undefined]) {
      expect(userContentType('download', HTML, declared)).toBe(OCTET_STREAM);
    }
  });

  it('keeps inert declared types (OCI manifests, JSON, plain text, bytes) on downloads', () => {
    for (const declared of ['application/vnd.oci.image.manifest.v1+json', 'application/vnd.docker.distribution.manifest.v2+json', 'application/json', 'text/plain; charset=utf-8', OCTET_STREAM]) {
      expect(userContentType('download', HTML, declared)).toBe(declared);
    }
  });

  it('shows raw text as text/plain (HTML and SVG included), safe images as themselves, the rest as bytes', () => {
    expect(userContentType('raw', HTML)).toBe(TEXT_PLAIN);
    expect(userContentType('raw', SVG)).toBe(TEXT_PLAIN);
    expect(userContentType('raw', PNG)).toBe('image/png');
    expect(userContentType('raw', Buffer.from([0, 1, 2, 3]))).toBe(OCTET_STREAM);
    expect(userContentType('raw', null)).toBe(OCTET_STREAM);
    expect(userContentType('download', PNG, 'text/html')).toBe('image/png');
  });

  it('serves a raw .svg as an SVG image and a raw .pdf as a PDF (sandboxed), never HTML as HTML', () => {
    expect(userContentType('raw', SVG, undefined, 'logo.svg')).toBe('image/svg+xml');
    expect(userContentType('raw', SVG, undefined, 'logo.svg.txt')).toBe(TEXT_PLAIN);
    expect(userContentType('raw', HTML, undefined, 'index.html')).toBe(TEXT_PLAIN);
    expect(userContentType('raw', Buffer.from('%PDF-1.7\n%\xe2\xe3'), undefined, 'doc.pdf')).toBe('application/pdf');
    expect(userContentType('raw', HTML, undefined, 'doc.pdf')).toBe(TEXT_PLAIN);
    expect(userContentType('raw', PNG, undefined, 'fake.svg')).toBe('image/png');
    expect(userContentType('download', SVG, 'image/svg+xml', 'logo.svg')).toBe(OCTET_STREAM);
    expect(imageTypeForName('Photo.JPG')).toBe('image/jpeg');
    expect(imageTypeForName('notes.txt')).toBeNull();
    expect(imageTypeForName('Makefile')).toBeNull();
  });

  it('sniffs raster images only, and text as Gitea does (first KiB without binary control bytes)', () => {
    expect(sniffSafeImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffSafeImage(Buffer.from('GIF89a...'))).toBe('image/gif');
    expect(sniffSafeImage(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffSafeImage(SVG)).toBeNull();
    expect(looksLikeText(Buffer.from('hello\r\n\tworld\x1b[0m\f'))).toBe(true);
    expect(looksLikeText(Buffer.from('abc\x07def'))).toBe(false);
    expect(looksLikeText(Buffer.concat([Buffer.alloc(1024, 0x41), Buffer.from([0])]))).toBe(true);
  });
});

describe('secureUserContentHeaders', () => {
  it('replaces the type whatever its case, adds nosniff and the sandbox, keeps the rest', () => {
    const out = secureUserContentHeaders(
      { 'Content-Type': 'text/html', 'content-disposition': 'attachment; filename="x"', 'content-length': '5', 'X-Content-Type-Options': 'sniff' },
      'download',
      HTML,
    );
    expect(out).toEqual({
      'content-disposition': 'attachment; filename="x"',
      'content-length': '5',
      'content-type': OCTET_STREAM,
      'x-content-type-options': 'nosniff',
      'content-security-policy': USER_CONTENT_CSP,
    });
    expect(USER_CONTENT_CSP).toMatch(/(^|; )sandbox$/);
  });
});

describe('peekHead', () => {
  const collect = async (r: Readable) => Buffer.concat(await r.toArray() as Buffer[]);

  it('gives the leading bytes and the whole body, across chunks and for short bodies', async () => {
    const chunks = [Buffer.alloc(700, 1), Buffer.alloc(700, 2), Buffer.alloc(10, 3)];
    const { head, body } = await peekHead(Readable.from(chunks));
    expect(head.length).toBe(1024);
    expect((await collect(body)).equals(Buffer.concat(chunks))).toBe(true);

    const short = await peekHead(Readable.from([Buffer.from('hi')]));
    expect(short.head.toString()).toBe('hi');
    expect((await collect(short.body)).toString()).toBe('hi');
    const empty = await peekHead(Readable.from([]));
    expect(empty.head.length).toBe(0);
    expect((await collect(empty.body)).length).toBe(0);
  });

  it('passes a failure of the source on', async () => {
    const failing = new Readable({ read() { this.destroy(new Error('gone')); } });
    await expect(peekHead(failing)).rejects.toThrow('gone');
  });
});
