import type { JobsOptions, Queue } from 'bullmq';

/**
 * BullMQ's `add` is a no-op while a finished job with that id is kept, so a finished one is removed first (racing
 * callers may queue twice, never zero times).
 */
export async function addUniqueJob<T, N extends string>(
  queue: Queue<T, unknown, N>,
  name: NoInfer<N>,
  data: T,
  opts: JobsOptions & { jobId: string },
): Promise<boolean> {
  const before = await queue.getJobState(opts.jobId);
  if (before === 'completed' || before === 'failed') {
    await queue.remove(opts.jobId);
  } else if (before !== 'unknown') {
    return false;
  }
  // Between the look and the add another caller may have added it: `add` is then the no-op we want.
  await (queue as Queue).add(name, data, opts);
  return true;
}
