import type { Db, Tx } from '../prisma/prisma.service.js';

/** Injection tokens of {@link UserOrgLinks} and {@link UserTokenLinks} (implemented by `OrgsRepository`, `TokensRepository`). */
export const USER_ORG_LINKS = Symbol('USER_ORG_LINKS');
export const USER_TOKEN_LINKS = Symbol('USER_TOKEN_LINKS');

/**
 * What users/ asks of the organizations built on accounts (visibility of an organization, deleting a member).
 * Declared here and implemented in orgs/, so users/ never imports the folders above it.
 */
export interface UserOrgLinks {
  orgUser(orgId: number, userId: number, db?: Db): Promise<unknown>;
  orgIdsOf(userId: number, db?: Db): Promise<number[]>;
  /** The Owners teams the user is in, locked until the transaction ends, with their member counts. */
  lockOwnerTeamsOf(tx: Tx, userId: number): Promise<Array<{ teamId: number; orgId: number; members: number }>>;
}

/** What deleting a user asks of its access tokens (implemented in tokens/). */
export interface UserTokenLinks {
  idsOfUser(userId: number, db?: Db): Promise<number[]>;
}
