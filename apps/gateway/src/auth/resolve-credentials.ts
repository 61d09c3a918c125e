import {
  DomainError, IdentitySubjects, twoFactorDeniesRepoAccess, twoFactorRequiredMessage,
  type ResolveCredentialsReply, type ResolveCredentialsRequest,
} from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import type { GatewaySettings } from '../config/gateway-settings.js';

/**
 * Resolves presented credentials (`identity.auth.resolve`) for every edge — API, web pages, git over HTTP — and holds
 * a `Sudo` administrator to the two-factor policy: acting as another user must not bypass the enrolment the
 * administrator owes (the user acted as is held to it by every repository check, as any actor).
 */
export async function resolveCredentials(
  rpc: RpcClient,
  settings: Pick<GatewaySettings, 'twoFactorAuth'>,
  request: ResolveCredentialsRequest,
): Promise<ResolveCredentialsReply> {
  const reply = await rpc.send(IdentitySubjects.authResolve, request);
  if (reply.sudoer && twoFactorDeniesRepoAccess(settings.twoFactorAuth, { ...reply.sudoer, via: reply.actor.via })) {
    throw DomainError.forbidden(twoFactorRequiredMessage(`Sudo (by ${reply.sudoer.login})`));
  }
  return reply;
}
