import type { Db, Tx } from '../prisma/prisma.service.js';

/** Injection tokens of {@link UserOrgLinks} and {@link UserTokenLinks} (implemented by `OrgsRepository`, `TokensRepository`). */
export const USER_ORG_LINKS = Symbol('USER_ORG_LINKS');
export const USER_TOKEN_LINKS = Symbol('USER_TOKEN_LINKS');

/** Declared here, implemented in orgs/, so users/ never imports the folders above it. */
export interface UserOrgLinks {
  orgUser(orgId: number, userId: number, db?: Db): Promise<unknown>;
  orgIdsOf(userId: number, db?: Db): Promise<number[]>;
  lockOwnerTeamsOf(tx: Tx, userId: number): Promise<Array<{ teamId: number; orgId: number; members: number }>>;
}

export interface UserTokenLinks {
  idsOfUser(userId: number, db?: Db): Promise<number[]>;
}
