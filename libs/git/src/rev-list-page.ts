import { isObjectId } from '@cairn/contracts';

/** Counts every line but keeps only one page's ids, so memory stays bounded however long the history is. */
export class RevListPage {
  total = 0;
  readonly ids: string[] = [];
  private partial = '';
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

  finish(): void {
    if (this.midLine) throw new Error('truncated git rev-list output');
  }
}
