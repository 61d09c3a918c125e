import { DomainError, ErrorCode, type ActorDto } from '@cairn/contracts';
import type { AccessRefusal, OwnerAccess, PackageAccess } from './package-access.js';

/** The owner's access when the caller may `need` it, or why not (each registry answers in its own format). */
export type OwnerAccessCheck =
  | { granted: OwnerAccess }
  | { refused: AccessRefusal | { kind: 'no-owner'; message: string } };

/** Unknown owner, anonymous caller who must authenticate, or missing access: refusals, not errors. */
export async function checkOwnerAccess(
  access: PackageAccess,
  actor: ActorDto | null,
  ownerName: string,
  need: 'read' | 'write',
): Promise<OwnerAccessCheck> {
  let resolved: OwnerAccess;
  try {
    resolved = await access.resolve(actor, ownerName);
  } catch (err) {
    if (err instanceof DomainError && (err.code === ErrorCode.NOT_FOUND || err.code === ErrorCode.INVALID_ARGUMENT)) {
      return { refused: { kind: 'no-owner', message: 'owner does not exist' } };
    }
    throw err;
  }
  const refusal = access.refusal(actor, resolved, need);
  return refusal ? { refused: refusal } : { granted: resolved };
}
