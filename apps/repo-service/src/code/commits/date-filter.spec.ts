import { describe, expect, it } from 'vitest';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { parseDateFilter } from './commits.service.js';

describe('parseDateFilter', () => {
  it("fails with Gitea's 422 message naming the parameter", () => {
    for (const name of ['since', 'until'] as const) {
      let err: unknown;
      try {
        parseDateFilter(name, '2024-01-02');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe(ErrorCode.UNPROCESSABLE);
      expect((err as DomainError).message).toBe(`invalid '${name}' format, expected ISO 8601 (RFC3339)`);
    }
  });

  it('rounds a fractional lower bound up and an upper bound down (commit dates are whole seconds)', () => {
    expect(parseDateFilter('since', '2024-01-02T15:04:05.5Z')).toBe(1704207846);
    expect(parseDateFilter('until', '2024-01-02T15:04:05.5Z')).toBe(1704207845);
    expect(parseDateFilter('since', '2024-01-02T15:04:05Z')).toBe(1704207845);
    expect(parseDateFilter('since', undefined)).toBeUndefined();
  });
});
