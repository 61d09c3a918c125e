import type { Tx } from '../../foundation/prisma/prisma.service.js';

/**
 * What else follows a renamed branch, inside the rename's transaction: open pull requests (`tracker/pulls`). Declared
 * here and bound in `layer-ports.module.ts`, so branches never import the tracker layer above them.
 */
export abstract class BranchRenameFollowers {
  abstract followRenamedBranch(tx: Tx, repoId: number, from: string, to: string): Promise<void>;
}
