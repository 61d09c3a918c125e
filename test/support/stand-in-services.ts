/**
 * Stand-ins for identity-service and hooks-service in repo-service's and merge-check-worker's integration tests:
 * two fixed accounts (alice, bob) as owners and commit authors, no organisations, no default hooks. They answer over
 * the real NATS server of the test, on the real subjects; the services under test are the real ones.
 */
import { Controller, Module } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { DomainError, HooksSubjects, IdentitySubjects, type UserDto } from '@cairn/contracts';

/** The `[server] ROOT_URL` the stand-ins link users under (give the service under test the same). */
export const STAND_IN_ROOT_URL = 'http://cairn.test:3000/';

export const STAND_IN_ACCOUNTS = [
  { id: 1, login: 'alice', name: 'Alice Liddell' },
  { id: 2, login: 'bob', name: 'Bob Builder' },
];
function userDto(a: { id: number; login: string; name: string }): UserDto {
  return {
    id: a.id, login: a.login, login_name: '', source_id: 0, full_name: a.name, email: `${a.login}@example.com`,
    avatar_url: '', html_url: `${STAND_IN_ROOT_URL}${a.login}`, language: '', is_admin: false,
    last_login: '1970-01-01T00:00:00Z', created: '2024-01-01T00:00:00Z', restricted: false, active: true,
    prohibit_login: false, location: '', website: '', description: '', visibility: 'public', followers_count: 0,
    following_count: 0, starred_repos_count: 0, username: a.login,
  };
}
class FakeServices {
  owner(req: { name: string }) {
    const a = STAND_IN_ACCOUNTS.find((x) => x.login === req.name.toLowerCase());
    if (!a) throw DomainError.notFound('no such owner');
    return { id: a.id, login: a.login, kind: 'user', visibility: 'public', user: userDto(a) };
  }
  lookup(req: { ids?: number[]; emails?: string[] }) {
    const users = STAND_IN_ACCOUNTS.filter((a) => req.ids?.includes(a.id) || req.emails?.includes(`${a.login}@example.com`));
    return { users: users.map(userDto), byEmail: Object.fromEntries(users.map((u) => [`${u.login}@example.com`, u.id])), adminIds: [] };
  }
  membership() {
    return { isMember: false, isOwner: false, teams: [] };
  }
  hooks() {
    return { copied: 0 };
  }
}
for (const [subject, method] of Object.entries({
  [IdentitySubjects.ownerResolve]: 'owner',
  [IdentitySubjects.userLookup]: 'lookup',
  [IdentitySubjects.orgMembership]: 'membership',
  [HooksSubjects.repositoryInit]: 'hooks',
} as Record<string, keyof FakeServices>)) {
  const proto = FakeServices.prototype;
  MessagePattern(subject)(proto, method, Object.getOwnPropertyDescriptor(proto, method)!);
}
Controller()(FakeServices);
/** A Nest module answering those subjects, to run in a microservice beside the service under test. */
export class StandInServicesModule {}
Module({ controllers: [FakeServices] })(StandInServicesModule);
