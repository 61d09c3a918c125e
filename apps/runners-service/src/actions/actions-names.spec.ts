import { describe, expect, it } from 'vitest';
import { ACTIONS_DESCRIPTION_MAX, actionsName, cutDescription, lookupName, storableText } from './actions-names.js';

describe('actionsName (Gitea tests/integration/api_repo_variables_test.go)', () => {
  it('accepts names of letters, digits and underscores not starting with a digit, stored upper-case', () => {
    expect(actionsName('variable', '_')).toBe('_');
    expect(actionsName('variable', 'test_var')).toBe('TEST_VAR');
    expect(actionsName('secret', 'a1')).toBe('A1');
    expect(actionsName('secret', 'CIA')).toBe('CIA');
  });

  it.each([
    ['-', /letters, digits and underscores/],
    ['', /letters, digits and underscores/],
    ['123var', /must not start with a digit/],
    ['var@test', /letters, digits and underscores/],
    ['github_var', /must not start with GITHUB_ or GITEA_/],
    ['gitea_var', /must not start with GITHUB_ or GITEA_/],
    ['ci', /CI is reserved/],
  ])('refuses %j naming the rule', (name, rule) => {
    expect(() => actionsName('variable', name)).toThrow(rule);
  });
});

describe('lookupName', () => {
  it('upper-cases valid names and finds nothing for names no variable can have', () => {
    expect(lookupName('Build')).toBe('BUILD');
    expect(lookupName('a\u0000b')).toBeNull();
    expect(lookupName('9')).toBeNull();
  });
});

describe('descriptions and texts', () => {
  it("cuts descriptions to Gitea's 4,096 characters, counting characters, not UTF-16 units", () => {
    expect(cutDescription(undefined)).toBe('');
    expect([...cutDescription('😀'.repeat(ACTIONS_DESCRIPTION_MAX + 5))]).toHaveLength(ACTIONS_DESCRIPTION_MAX);
    expect(cutDescription('short')).toBe('short');
  });

  it('refuses NUL characters, which PostgreSQL cannot store', () => {
    expect(() => storableText('a\u0000', 'value')).toThrow(/value must not contain NUL/);
    expect(() => cutDescription('x\u0000')).toThrow(/description must not contain NUL/);
    expect(storableText('ok', 'value')).toBe('ok');
  });
});
