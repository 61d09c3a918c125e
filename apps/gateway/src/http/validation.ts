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
 * The value with every object property that is JSON `null` left out, at any depth (array elements stay). Gitea's
 * binding decodes `null` as Go does — a nil pointer or the zero value, i.e. "not given" — and Go clients (its own SDK)
 * send `null` for every optional field they leave unset, so `null` must mean absent here too.
 */
export function withoutNulls(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => (v === null ? v : withoutNulls(v, depth + 1)));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v !== null) out[key] = withoutNulls(v, depth + 1);
  }
  return out;
}

/**
 * The contract-class validation, preceded by one rule for every path parameter, query value and body field: no NUL
 * characters. PostgreSQL text cannot hold one, so letting it through would end in a 500 at the database. Body fields
 * that are `null` are dropped first (`withoutNulls`).
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
    if (metadata.type === 'body') value = withoutNulls(value);
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
