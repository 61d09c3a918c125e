import { describe, expect, it } from 'vitest';
import type { MilestoneDto } from '@cairn/contracts';
import { deadlineToDueOn, milestoneRows } from './tracker.pages.js';

describe('labels and milestones pages', () => {
  it('turns the date field into the API due date (end of that day, UTC), refusing anything else with a 422', () => {
    expect(deadlineToDueOn('2031-01-31')).toBe('2031-01-31T23:59:59Z');
    expect(deadlineToDueOn('  ')).toBeUndefined();
    for (const bad of ['31/01/2031', '2031-13-45', '2031-01-31T00:00']) {
      expect(() => deadlineToDueOn(bad)).toThrow(expect.objectContaining({ code: 'UNPROCESSABLE' }));
    }
  });

  it('shows each milestone with its progress and a link to its issues', () => {
    const [row] = milestoneRows([{ id: 3, title: 'v1', description: '', state: 'open', open_issues: 1, closed_issues: 3, due_on: '2031-01-31T23:59:59Z', closed_at: null } as MilestoneDto], '/o/r/issues');
    expect(row).toMatchObject({ percent: 75, href: '/o/r/issues?state=all&milestone=3', deadline: '2031-01-31' });
    expect(milestoneRows([{ id: 4, open_issues: 0, closed_issues: 0, due_on: null } as MilestoneDto], '/x')[0].percent).toBe(0);
  });
});
