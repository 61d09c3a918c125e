/**
 * Liveness of the event loop: a timer that should fire every `intervalMs` records how late it fired. A loop blocked
 * for good never answers `/livez` at all (the probe times out); one blocked again and again (a runaway synchronous
 * loop, a CPU-bound regex) answers, late, and the recorded lag says it is stuck. `maxLagMs` is where stuck starts.
 */
export class EventLoopHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private expected = 0;
  /** The largest lateness seen in the current and the previous window (one window = `windowBeats` beats). */
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

  /** How late the heartbeat has been lately (ms), including a beat that is overdue right now. */
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
