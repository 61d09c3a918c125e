import { Inject, Injectable, Logger } from '@nestjs/common';
import { IdentitySubjects } from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { commitsBetween, type CommitSigning } from '@cairn/git';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { REPO_SETTINGS } from '../../foundation/config/repo-settings.js';
import { CommitSignatureCheck } from './commit-signature-check.js';
import { CommitSigner, type SigningAction, type SigningContext } from '../merge/commit-signer.js';
import { InstanceSigningKey, type SigningSettings } from './instance-key.js';
import { evaluateRules, type SigningFacts } from './signing-rules.js';
import type { SigningRule } from '../../foundation/config/signing-settings.js';

// Gitea's `SignInitialCommit`, `SignCRUDAction`, `SignMerge`. A rule whose fact cannot be learned counts as not
// holding: the commit is made unsigned rather than not at all.
@Injectable()
export class InstanceCommitSigner extends CommitSigner {
  private readonly logger = new Logger('CommitSigner');

  constructor(
    private readonly instanceKey: InstanceSigningKey,
    private readonly identity: IdentityDirectory,
    private readonly rpc: RpcClient,
    private readonly signatures: CommitSignatureCheck,
    @Inject(REPO_SETTINGS) private readonly settings: SigningSettings,
  ) {
    super();
  }

  async decide(action: SigningAction, ctx: SigningContext): Promise<CommitSigning | null> {
    try {
      return await this.decideOrThrow(action, ctx);
    } catch (err) {
      // As Gitea (whose callers ignore SignMerge's error): a rule that cannot be evaluated leaves the commit unsigned.
      this.logger.warn(`${action} commit left unsigned: the signing rules could not be evaluated (${(err as Error).message})`);
      return null;
    }
  }

  private async decideOrThrow(action: SigningAction, ctx: SigningContext): Promise<CommitSigning | null> {
    const key = await this.instanceKey.resolve(ctx.gitDir);
    if (!key) return null;
    const verdict = await evaluateRules(this.rulesFor(action, ctx), this.facts(ctx));
    if (!verdict.sign) {
      this.logger.debug(`${action} commit left unsigned: rule ${verdict.reason}`);
      return null;
    }
    const trustModel = !ctx.trustModel || ctx.trustModel === 'default' ? this.settings.defaultTrustModel : ctx.trustModel;
    return {
      ...key,
      committerIsSigner: trustModel !== 'collaborator',
      coAuthorTrailers: action === 'crud',
    };
  }

  private rulesFor(action: SigningAction, ctx: SigningContext): SigningRule[] {
    if (action === 'merge') return this.settings.merges;
    if (action === 'crud' && ctx.parentCommit) return this.settings.crudActions;
    return this.settings.initialCommit;
  }

  private facts(ctx: SigningContext): SigningFacts {
    const verifies = (oid: string | null | undefined) => (oid ? this.signatures.allVerify(ctx, [oid]) : Promise.resolve(false));
    return {
      actorHasGpgKey: () => this.actorHasGpgKey(ctx.actorId),
      actorHasTwoFactor: () => Promise.resolve(ctx.actorId !== null && ctx.actor?.id === ctx.actorId && ctx.actor.hasTwoFactor),
      parentSigned: () => verifies(ctx.parentCommit),
      baseSigned: () => verifies(ctx.baseCommit),
      headSigned: () => verifies(ctx.headCommit),
      commitsSigned: () => this.commitsVerify(ctx),
      approved: async () => ((await ctx.approvals?.()) ?? 0) >= 1,
    };
  }

  /** `pubkey`: the actor owns at least one GPG key (identity's `identity.signing.keys`, by their primary e-mail). */
  private async actorHasGpgKey(actorId: number | null): Promise<boolean> {
    if (actorId === null) return false;
    try {
      const user = (await this.identity.usersById([actorId])).get(actorId);
      if (!user?.email) return false;
      const reply = await this.rpc.send(IdentitySubjects.signingKeys, { emails: [user.email] });
      const owner = reply.byEmail[user.email.toLowerCase()];
      return owner?.user.id === actorId && owner.gpgKeys.length > 0;
    } catch (err) {
      this.logger.warn(`rule pubkey: the GPG keys of user ${actorId} could not be looked up (${(err as Error).message}); not signing`);
      return false;
    }
  }

  /** `commitssigned`: the head and every commit it adds to the base verify. */
  private async commitsVerify(ctx: SigningContext): Promise<boolean> {
    if (!ctx.baseCommit || !ctx.headCommit) return false;
    const commits = new Set([ctx.headCommit, ...(await commitsBetween(ctx.gitDir, ctx.baseCommit, ctx.headCommit))]);
    return this.signatures.allVerify(ctx, [...commits]);
  }
}
