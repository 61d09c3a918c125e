import { afterEach, describe, expect, it } from 'vitest';
import { EventLoopHeartbeat } from './event-loop-heartbeat.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

function blockLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy on purpose
  }
}

describe('EventLoopHeartbeat', () => {
  let heartbeat: EventLoopHeartbeat | undefined;
  afterEach(() => heartbeat?.stop());

  it('is alive while the loop turns and reports a loop blocked past its limit as stuck', async () => {
    heartbeat = new EventLoopHeartbeat(20, 1_500);
    heartbeat.start();
    await tick(100);
    expect(heartbeat.alive).toBe(true);

    blockLoop(2_500);
    // Right after the block, before the heartbeat ran: the overdue beat already counts.
    expect(heartbeat.lagMs).toBeGreaterThanOrEqual(2_000);
    expect(heartbeat.alive).toBe(false);
    await tick(50);
    // The late beat is remembered for its window, so a probe arriving after the block still sees it.
    expect(heartbeat.alive).toBe(false);
  });

  it('forgets a block once two windows of normal beats have passed', async () => {
    heartbeat = new EventLoopHeartbeat(10, 1_000, 3);
    heartbeat.start();
    blockLoop(1_500);
    await tick(15);
    expect(heartbeat.alive).toBe(false);
    await tick(400);
    expect(heartbeat.alive).toBe(true);
  });
});
