/** At most `size` holders at once; the others wait in arrival order. */
export class Semaphore {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async acquire(): Promise<() => void> {
    if (this.held < this.size) this.held++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The place goes straight to the next waiter, so a newcomer cannot overtake it.
      if (next) next();
      else this.held--;
    };
  }
}
