import { DomainError, SCOPE_CATEGORIES, type ScopeCategory } from '@cairn/contracts';

/** The access a token form grants per scope category: one `<select name="scope_<category>">` each, as Gitea's page. */
export const SCOPE_LEVELS = ['', 'read', 'write'] as const;

/** The form field of a scope category. */
export function scopeField(category: ScopeCategory): string {
  return `scope_${category}`;
}

/**
 * Turns the token form's per-category choices into Gitea scope names (`read:repository`, `write:user`, …). Which
 * scopes a token may carry, and whether it needs one, stays identity-service's rule; this only reads the form.
 */
export function scopesFromForm(form: Record<string, string>): string[] {
  const scopes: string[] = [];
  for (const category of SCOPE_CATEGORIES) {
    const level = form[scopeField(category)] ?? '';
    if (!(SCOPE_LEVELS as readonly string[]).includes(level)) {
      throw DomainError.unprocessable(`${scopeField(category)} must be one of: no access, read, write`);
    }
    if (level) scopes.push(`${level}:${category}`);
  }
  return scopes;
}
