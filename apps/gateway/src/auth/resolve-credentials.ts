import {
  DomainError, IdentitySubjects, twoFactorDeniesRepoAccess, twoFactorRequiredMessage,
  type ResolveCredentialsReply, type ResolveCredentialsRequest,
} from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import type { GatewaySettings } from '../config/gateway-settings.js';

// A `Sudo` administrator is held to the two-factor policy: acting as another user must not bypass their own enrolment.
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
