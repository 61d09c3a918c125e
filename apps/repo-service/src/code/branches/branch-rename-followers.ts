import type { Tx } from '../../foundation/prisma/prisma.service.js';

/** Followers of a renamed branch (open pull requests); bound in `layer-ports.module.ts`: no import of the tracker. */
export abstract class BranchRenameFollowers {
  abstract followRenamedBranch(tx: Tx, repoId: number, from: string, to: string): Promise<void>;
}
