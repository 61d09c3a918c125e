import { Injectable } from '@nestjs/common';
import type { OrgMembershipReply } from '@cairn/contracts';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';

/** What the trust of a page's signatures depends on, read in one query. */
export interface TrustFacts {
  trustModel: string;
  ownerId: number;
  ownerKind: string;
  /** Those of the asked users who collaborate on the repository. */
  collaboratorIds: Set<number>;
  teamIds: Set<number>;
}

/** Where the facts behind a trust status come from: the repository's row and organization memberships. */
export abstract class SignatureTrustSource {
  /** The repository's trust model and owner, and which of `userIds` collaborate on it; null when it is gone. */
  abstract facts(repoId: number, userIds: number[]): Promise<TrustFacts | null>;
  abstract membership(orgId: number, userId: number): Promise<OrgMembershipReply>;
}

interface RawTrustFacts {
  trust_model: string;
  owner_id: number;
  owner_kind: string;
  collaborator_ids: number[] | null;
  team_ids: number[] | null;
}

@Injectable()
export class SignatureTrustRepository extends SignatureTrustSource {
  constructor(
    private readonly prisma: PrismaService,
    private readonly identity: IdentityDirectory,
  ) {
    super();
  }

  async facts(repoId: number, userIds: number[]): Promise<TrustFacts | null> {
    const rows = await this.prisma.$queryRaw<RawTrustFacts[]>`
      SELECT r.trust_model, r.owner_id, r.owner_kind,
             ARRAY(SELECT c.user_id FROM "repo".collaborations c
                    WHERE c.repo_id = r.id AND c.user_id = ANY(${userIds}::int[])) AS collaborator_ids,
             ARRAY(SELECT tr.team_id FROM "repo".team_repos tr WHERE tr.repo_id = r.id) AS team_ids
        FROM "repo".repositories r
       WHERE r.id = ${repoId}::int`;
    const r = rows[0];
    if (!r) return null;
    return {
      trustModel: r.trust_model,
      ownerId: r.owner_id,
      ownerKind: r.owner_kind,
      collaboratorIds: new Set(r.collaborator_ids ?? []),
      teamIds: new Set(r.team_ids ?? []),
    };
  }

  membership(orgId: number, userId: number): Promise<OrgMembershipReply> {
    return this.identity.membership(orgId, userId);
  }
}
