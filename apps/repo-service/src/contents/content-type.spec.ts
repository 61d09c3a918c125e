import { describe, expect, it } from 'vitest';
import { inlineDisposition, OCTET_STREAM, sniffContentType, TEXT_PLAIN } from './content-type.js';

describe('sniffContentType', () => {
  it('serves text (HTML and non-ASCII included) as text/plain', () => {
    expect(sniffContentType(Buffer.from('hello\r\n\tworld\x1b[0m\f'))).toBe(TEXT_PLAIN);
    expect(sniffContentType(Buffer.from('<html><script>x</script></html>'))).toBe(TEXT_PLAIN);
    expect(sniffContentType(Buffer.from('ünïcödé'))).toBe(TEXT_PLAIN);
    expect(sniffContentType(Buffer.alloc(0))).toBe(TEXT_PLAIN);
  });

  it('serves data with binary control bytes as octet-stream', () => {
    expect(sniffContentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1]))).toBe(OCTET_STREAM);
    expect(sniffContentType(Buffer.from('abc\x07def'))).toBe(OCTET_STREAM);
  });

  it('looks at the first KiB only', () => {
    expect(sniffContentType(Buffer.concat([Buffer.alloc(1024, 0x41), Buffer.from([0])]))).toBe(TEXT_PLAIN);
  });
});

describe('inlineDisposition', () => {
  it('keeps an ASCII fallback and the exact UTF-8 name', () => {
    expect(inlineDisposition('ü "x".txt')).toBe(`inline; filename="_ _x_.txt"; filename*=UTF-8''%C3%BC%20%22x%22.txt`);
  });
});
