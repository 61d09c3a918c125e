import { describe, expect, it } from 'vitest';
import { RevListPage } from './rev-list-page.js';

const ids = Array.from({ length: 7 }, (_, i) => String(i).repeat(40));
const output = Buffer.from(ids.map((id) => `${id}\n`).join(''));

function read(skip: number, limit: number, chunkSize: number, out = output): RevListPage {
  const page = new RevListPage(skip, limit);
  for (let i = 0; i < out.length; i += chunkSize) page.push(out.subarray(i, i + chunkSize));
  page.finish();
  return page;
}

describe('RevListPage', () => {
  it('counts every line and keeps the page, across arbitrary chunk boundaries', () => {
    for (const size of [1, 2, 39, 40, 41, 83, output.length]) {
      expect(read(0, 3, size), `chunks of ${size}`).toMatchObject({ total: 7, ids: ids.slice(0, 3) });
      expect(read(2, 3, size), `chunks of ${size}`).toMatchObject({ total: 7, ids: ids.slice(2, 5) });
      expect(read(5, 30, size), `chunks of ${size}`).toMatchObject({ total: 7, ids: ids.slice(5) });
      expect(read(9, 3, size), `chunks of ${size}`).toMatchObject({ total: 7, ids: [] });
    }
  });

  it('reads no output as an empty history', () => {
    expect(read(0, 30, 10, Buffer.alloc(0))).toMatchObject({ total: 0, ids: [] });
  });

  it('accepts SHA-256 ids and refuses anything else on the page', () => {
    const long = 'e'.repeat(64);
    expect(read(0, 1, 7, Buffer.from(`${long}\n`)).ids).toEqual([long]);
    expect(() => read(0, 1, 100, Buffer.from('not an id\n'))).toThrow(/unexpected line/);
    expect(() => read(0, 1, 100, Buffer.from(`${'A'.repeat(40)}\n`))).toThrow(/unexpected line/);
  });

  it('refuses output that stops in the middle of a line, on the page or not', () => {
    expect(() => read(0, 1, 5, Buffer.from(ids[0]))).toThrow(/truncated/);
    expect(() => read(0, 1, 5, Buffer.from(`${ids[0]}\n${ids[1]}`))).toThrow(/truncated/);
  });
});
