import type { ActorDto, ScopeCategory } from '@cairn/contracts';

export function requiredScope(category: ScopeCategory, method: string): string {
  const level = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
  return `${level}:${category}`;
}

/** Whether a set of token scopes grants a scope: `all` grants everything, `write:x` implies `read:x`. */
export function scopesGrant(scopes: readonly string[], needed: string): boolean {
  if (scopes.includes('all') || scopes.includes(needed)) return true;
  const [level, category] = needed.split(':');
  return level === 'read' && scopes.includes(`write:${category}`);
}

/** Every scope in `needed` is required (Gitea's `HasScope`); only token logins are limited, as in Gitea. */
export function missingScopesMessage(actor: ActorDto, needed: readonly string[]): string | null {
  if (actor.via !== 'token') return null;
  if (needed.every((scope) => scopesGrant(actor.scopes, scope))) return null;
  return `token does not have at least one of required scope(s), required=[${needed.join(' ')}], token scope=${actor.scopes.join(',')}`;
}

export function missingScopeMessage(actor: ActorDto, categories: readonly ScopeCategory[], method: string): string | null {
  return missingScopesMessage(actor, categories.map((category) => requiredScope(category, method)));
}
