import type { JobsOptions, Queue } from 'bullmq';

/**
 * Adds a job whose id names the work (say, "check pull request 7 at these two commits"), so that asking twice while
 * it waits or runs queues it once — and asking again after it finished queues it again.
 *
 * BullMQ alone does not do the second half: `queue.add` with an id that exists is a no-op as long as the old job is
 * kept (finished jobs are kept for inspection), and the `Job` it returns is built locally from the new arguments, so
 * its `finishedOn` says nothing about the job in Redis. Work that must be redone after a return to an earlier state
 * (a base branch that moves away and back) would silently never run. So the kept job's real state is read, and a
 * finished one is removed and the job added anew.
 *
 * Two callers racing past a finished job may queue the work twice in the worst case; never zero times.
 * Returns whether a new job was added (`false`: the same work was already waiting or running).
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
