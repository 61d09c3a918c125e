import { isObjectId } from '@cairn/contracts';

/**
 * Incremental reader of `git rev-list` output (one commit id per line): counts every line and keeps only the ids
 * of one page (lines `skip` … `skip + limit - 1`), so memory stays bounded however long the history is. Feed
 * chunks as they arrive, whatever their boundaries.
 */
export class RevListPage {
  /** Lines seen so far. */
  total = 0;
  /** The page's ids, in output order. */
  readonly ids: string[] = [];
  /** The start of a page line whose end has not arrived yet. */
  private partial = '';
  /** True while a line has begun but not ended. */
  private midLine = false;
  private readonly first: number;
  private readonly afterLast: number;

  constructor(skip: number, limit: number) {
    this.first = Math.max(0, Math.trunc(skip));
    this.afterLast = this.first + Math.max(0, Math.trunc(limit));
  }

  private inPage(): boolean {
    return this.total >= this.first && this.total < this.afterLast;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      if (this.inPage()) {
        const id = this.partial + chunk.toString('latin1', start, nl);
        if (!isObjectId(id)) throw new Error('unexpected line in git rev-list output');
        this.ids.push(id);
      }
      this.partial = '';
      this.total += 1;
      start = nl + 1;
    }
    if (chunk.length) this.midLine = start < chunk.length;
    if (start < chunk.length && this.inPage()) this.partial += chunk.toString('latin1', start);
  }

  /** Call once the output has ended; throws when it stopped in the middle of a line. */
  finish(): void {
    if (this.midLine) throw new Error('truncated git rev-list output');
  }
}
