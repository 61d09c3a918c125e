import { describe, expect, it } from 'vitest';
import { isValidTopic, sanitizeTopics } from '@cairn/contracts';

describe('topics (Gitea rules)', () => {
  it.each(['a', '0', 'go', 'c-sharp', 'v1.2', 'a'.repeat(35)])('accepts %j', (t) => expect(isValidTopic(t)).toBe(true));

  it.each(['', '-a', '.a', 'A', 'a b', 'a_b', 'ü', 'a'.repeat(36)])('refuses %j', (t) => expect(isValidTopic(t)).toBe(false));

  it('trims, lower-cases, drops empty ones and duplicates, and keeps the invalid ones apart', () => {
    expect(sanitizeTopics([' Go ', 'go', '', 'Rust', 'bad topic', '-x'])).toEqual({
      valid: ['go', 'rust'],
      invalid: ['bad topic', '-x'],
    });
  });
});
