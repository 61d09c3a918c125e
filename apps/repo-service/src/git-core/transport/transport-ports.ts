import type { Readable } from 'node:stream';
import type { AttachmentDto } from '@cairn/contracts';

/** receive-pack's quarantine variables, so git sees the pushed objects before they are accepted. */
export type QuarantineEnv = Readonly<Record<string, string | undefined>>;

/** One ref update a push (or an API write) is about to make. */
export interface ProposedUpdate {
  ref: string;
  old: string;
  new: string;
}

/** Who writes where: what the transport knows of a push in progress. */
export interface ProposedPush {
  repoId: number;
  /** The pusher (null: nobody signed in, which the transports never let push). */
  pusherId: number | null;
  /** The deploy key pushing, if any (then `pusherId` is the repository's owner, whose allow-listing does not count). */
  deployKeyId?: number;
  /** The repository's storage directory. */
  dir: string;
  /** receive-pack's quarantine variables, so git sees the pushed objects before they are accepted. */
  env: QuarantineEnv;
  updates: ProposedUpdate[];
  /**
   * The update is a pull request's merge into its base, whose merge rules (allow-list, approvals, statuses:
   * `MergeProtection`) were met: they stand in for the push allow-list, as in Gitea's pre-receive for merges.
   */
  pullMerge?: boolean;
}

/**
 * What the pre-receive hook asks before a push moves refs. Declared here, implemented a layer up by branch protection
 * (`code/branch-protection`), bound in `layer-ports.module.ts`: the transport never imports the layers above it.
 */
export abstract class PushPolicy {
  /** The refusal messages for the push's updates, empty when all are allowed. */
  abstract refusals(push: ProposedPush): Promise<string[]>;
  /** Whether the repository has any protection rule (no rule: the hook skips the check). */
  abstract hasRules(repoId: number): Promise<boolean>;
}

/** A release attachment the internal endpoint receives. */
export interface AttachmentUpload {
  repoId: number;
  releaseId: number;
  uploaderId: number;
  name: string;
}

/** Stores an uploaded release attachment; implemented by releases (`code/releases`), bound like {@link PushPolicy}. */
export abstract class AttachmentUploads {
  abstract upload(upload: AttachmentUpload, body: Readable): Promise<AttachmentDto>;
}
