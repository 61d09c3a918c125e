import {
  UnprocessableEntityException, ValidationPipe, type ArgumentMetadata,
} from '@nestjs/common';
import { DomainError } from '@cairn/contracts';
import { flattenValidationErrors } from '@cairn/platform';

/** The first string inside `value` (depth-first) that holds a NUL character, as a field path; null when none. */
export function findNulCharacter(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNulCharacter(value[i], `${path}[${i}]`, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const hit = findNulCharacter(v, path ? `${path}.${key}` : key, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/**
 * The contract-class validation, preceded by one rule for every path parameter, query value and body field: no NUL
 * characters. PostgreSQL text cannot hold one, so letting it through would end in a 500 at the database.
 */
class EdgeValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') {
      const where = findNulCharacter(value, metadata.type === 'body' ? '' : (metadata.data ?? ''));
      if (where !== null) {
        const message = `${where || metadata.type} must not contain NUL characters`;
        if (metadata.type === 'param') throw DomainError.invalid(message);
        throw new UnprocessableEntityException({ message, errors: [message] });
      }
    }
    return super.transform(value, metadata);
  }
}

/**
 * Edge validation with the contract classes. A body or query that parses but breaks a rule answers 422 with the
 * field list (as Gitea's binding errors do). Unknown fields are dropped, not refused: Gitea ignores them, and clients
 * written against newer Gitea versions send fields we do not know.
 */
export function createEdgeValidationPipe(): ValidationPipe {
  return new EdgeValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    exceptionFactory: (errors) => {
      const details = flattenValidationErrors(errors);
      return new UnprocessableEntityException({ message: details[0] ?? 'invalid request', errors: details });
    },
  });
}
