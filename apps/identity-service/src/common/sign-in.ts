import { DomainError, ErrorCode } from '@cairn/contracts';

const unauthenticated = (message: string) => new DomainError(ErrorCode.UNAUTHENTICATED, message);

/** Refuses accounts that may not sign in with any credential (organizations, prohibited or inactive users). */
export function assertCanSignIn(user: { type: string; prohibitLogin: boolean; isActive: boolean }): void {
  if (user.type !== 'user') throw unauthenticated('invalid credentials');
  if (user.prohibitLogin) throw unauthenticated('this account is prohibited from signing in');
  if (!user.isActive) throw unauthenticated('this account is not activated');
}
