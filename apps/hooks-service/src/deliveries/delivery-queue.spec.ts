import { describe, expect, it } from 'vitest';
import { FIRST_ATTEMPTS_PER_JOB, jobIdOf, parseDeliveryJob, planJobs } from './delivery-queue.js';

const EVENT = '0b9e7a52-3c1d-4e8f-9a6b-2d4c6e8f0a1b';
const OTHER = 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9';
const G = FIRST_ATTEMPTS_PER_JOB;

describe('delivery jobs', () => {
  it('a first attempt of an event belongs to its group; other attempts and event-less deliveries get their own job', () => {
    expect(jobIdOf({ id: 3 * G, eventId: EVENT }, 1)).toBe(`e${EVENT}-g3`);
    expect(jobIdOf({ id: 3 * G + G - 1, eventId: EVENT }, 1)).toBe(`e${EVENT}-g3`);
    expect(jobIdOf({ id: 4 * G, eventId: EVENT }, 1)).toBe(`e${EVENT}-g4`);
    expect(jobIdOf({ id: 3 * G, eventId: EVENT }, 2)).toBe(`d${3 * G}-a2`);
    expect(jobIdOf({ id: 7, eventId: null }, 1)).toBe('d7-a1');
  });

  it('plans one job per group of first attempts and one per other attempt', () => {
    const jobs = planJobs([
      { id: 2 * G, eventId: EVENT, attempt: 1 },
      { id: 2 * G + 1, eventId: EVENT, attempt: 1 },
      { id: 3 * G, eventId: EVENT, attempt: 1 },
      { id: 2 * G + 2, eventId: OTHER, attempt: 1 },
      { id: 2 * G + 3, eventId: EVENT, attempt: 3 },
      { id: 5, eventId: null, attempt: 1 },
    ]);
    expect(jobs).toEqual(
      expect.arrayContaining([
        { jobId: `e${EVENT}-g2`, data: { deliveryIds: [2 * G, 2 * G + 1] } },
        { jobId: `e${EVENT}-g3`, data: { deliveryIds: [3 * G] } },
        { jobId: `e${OTHER}-g2`, data: { deliveryIds: [2 * G + 2] } },
        { jobId: `d${2 * G + 3}-a3`, data: { deliveryId: 2 * G + 3 } },
        { jobId: 'd5-a1', data: { deliveryId: 5 } },
      ]),
    );
    expect(jobs).toHaveLength(5);
  });

  it('reads back what it plans, and nothing whose id and data disagree', () => {
    for (const job of planJobs([{ id: 40, eventId: EVENT, attempt: 1 }, { id: 41, eventId: null, attempt: 2 }])) {
      const parsed = parseDeliveryJob(job.jobId, job.data);
      expect(parsed?.jobId).toBe(job.jobId);
    }
    expect(parseDeliveryJob('d41-a2', { deliveryId: 41 })).toEqual({ jobId: 'd41-a2', deliveryIds: [41], attempt: 2 });
    expect(parseDeliveryJob(`e${EVENT}-g5`, { deliveryIds: [40, 41] })).toEqual({ jobId: `e${EVENT}-g5`, deliveryIds: [40, 41], attempt: 1 });
    expect(parseDeliveryJob('d41-a2', { deliveryId: 42 })).toBeNull();
    expect(parseDeliveryJob('d41-a2', null)).toBeNull();
    expect(parseDeliveryJob(`e${EVENT}-g5`, { deliveryIds: [] })).toBeNull();
    expect(parseDeliveryJob(`e${EVENT}-g5`, { deliveryIds: [1, 'x'] })).toBeNull();
    expect(parseDeliveryJob(`e${EVENT}-g5`, { deliveryIds: [0] })).toBeNull();
    expect(parseDeliveryJob(`e${EVENT}-g5`, { deliveryId: 40 })).toBeNull();
    expect(parseDeliveryJob('something-else', { deliveryId: 1 })).toBeNull();
    expect(parseDeliveryJob(undefined, { deliveryId: 1 })).toBeNull();
  });
});
