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

export interface ProposedPush {
  repoId: number;
  /** The pusher (null: nobody signed in, which the transports never let push). */
  pusherId: number | null;
  /** The deploy key pushing, if any (then `pusherId` is the repository's owner, whose allow-listing does not count). */
  deployKeyId?: number;
  dir: string;
  env: QuarantineEnv;
  updates: ProposedUpdate[];
  /** A pull request's merge whose merge rules were met: they stand in for the push allow-list, as in Gitea. */
  pullMerge?: boolean;
}

/** Implemented by branch protection, bound in `layer-ports.module.ts`: the transport never imports layers above. */
export abstract class PushPolicy {
  abstract refusals(push: ProposedPush): Promise<string[]>;
  /** Whether the repository has any protection rule (no rule: the hook skips the check). */
  abstract hasRules(repoId: number): Promise<boolean>;
}

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
