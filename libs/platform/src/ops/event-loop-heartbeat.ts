/** A loop blocked for good never answers `/livez`; one blocked again and again answers late, and the lag says it is stuck. */
export class EventLoopHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private expected = 0;
  /** One window = `windowBeats` beats. */
  private currentMax = 0;
  private previousMax = 0;
  private beats = 0;

  constructor(
    private readonly intervalMs = 500,
    readonly maxLagMs = 5_000,
    private readonly windowBeats = 20,
  ) {}

  start(): void {
    if (this.timer) return;
    this.expected = performance.now() + this.intervalMs;
    this.timer = setInterval(() => this.beat(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Includes a beat that is overdue right now. */
  get lagMs(): number {
    const overdue = this.timer ? Math.max(0, performance.now() - this.expected) : 0;
    return Math.max(this.currentMax, this.previousMax, overdue);
  }

  get alive(): boolean {
    return this.lagMs <= this.maxLagMs;
  }

  private beat(): void {
    const now = performance.now();
    this.currentMax = Math.max(this.currentMax, now - this.expected);
    this.expected = now + this.intervalMs;
    if (++this.beats >= this.windowBeats) {
      this.previousMax = this.currentMax;
      this.currentMax = 0;
      this.beats = 0;
    }
  }
}
