import { DomainError, SCOPE_CATEGORIES, type ScopeCategory } from '@cairn/contracts';

/** The access a token form grants per scope category: one `<select name="scope_<category>">` each, as Gitea's page. */
export const SCOPE_LEVELS = ['', 'read', 'write'] as const;

export function scopeField(category: ScopeCategory): string {
  return `scope_${category}`;
}

/** Reads the form only: which scopes a token may carry stays identity-service's rule. */
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
