import type { ActorDto, ResolveCredentialsReply, UserDto } from '@cairn/contracts';
import type { FastifyRequest } from 'fastify';

/** How the client presented credentials (decides e.g. Basic-only routes and whether token scopes apply). */
export type AuthMethod = 'none' | 'token' | 'basic-password' | 'basic-token' | 'session';

export interface AuthState {
  actor: ActorDto | null;
  user: UserDto | null;
  method: AuthMethod;
  /** With `Sudo`: the administrator who really signed in (the actor is the user acted as). */
  sudoer?: ResolveCredentialsReply['sudoer'];
}

const AUTH = Symbol('cairnAuth');

export function setAuthState(req: FastifyRequest, state: AuthState): void {
  (req as unknown as Record<symbol, AuthState>)[AUTH] = state;
}

export function getAuthState(req: FastifyRequest): AuthState {
  return (req as unknown as Record<symbol, AuthState>)[AUTH] ?? { actor: null, user: null, method: 'none' };
}
