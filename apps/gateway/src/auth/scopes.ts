import type { ActorDto, ScopeCategory } from '@cairn/contracts';

/** The scope a request needs: `read:<cat>` for GET/HEAD, `write:<cat>` otherwise (Gitea's rule). */
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

/**
 * The 403 message for a token that lacks any of `needed` (every one is required, as Gitea's `HasScope`), or null.
 * Scopes apply only to token authentication; password and session logins are not limited (as Gitea).
 */
export function missingScopesMessage(actor: ActorDto, needed: readonly string[]): string | null {
  if (actor.via !== 'token') return null;
  if (needed.every((scope) => scopesGrant(actor.scopes, scope))) return null;
  return `token does not have at least one of required scope(s), required=[${needed.join(' ')}], token scope=${actor.scopes.join(',')}`;
}

/** {@link missingScopesMessage} for a route's categories at the level its HTTP method needs. */
export function missingScopeMessage(actor: ActorDto, categories: readonly ScopeCategory[], method: string): string | null {
  return missingScopesMessage(actor, categories.map((category) => requiredScope(category, method)));
}
