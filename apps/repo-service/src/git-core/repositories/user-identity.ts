import type { UserDto } from '@cairn/contracts';
import { hostOf } from './repository.mapper.js';
import type { GitIdentity } from '@cairn/git';

/** Full name (else login) and e-mail (else a no-reply address on the instance's host, as Gitea). */
export function userGitIdentity(user: UserDto | undefined, login: string, rootUrl: string): GitIdentity {
  const name = user?.login ?? login;
  return {
    name: user?.full_name?.trim() || name,
    email: user?.email?.trim() || `${name}@noreply.${hostOf(rootUrl)}`,
  };
}
