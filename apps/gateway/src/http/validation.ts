import {
  UnprocessableEntityException, ValidationPipe, type ArgumentMetadata,
} from '@nestjs/common';
import { DomainError } from '@cairn/contracts';
import { flattenValidationErrors } from '@cairn/platform';

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

/** Go clients (Gitea's SDK) send `null` for every unset optional field, which Gitea's binding reads as absent. */
export function withoutNulls(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v: unknown) => (v === null ? v : withoutNulls(v, depth + 1)));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v !== null) out[key] = withoutNulls(v, depth + 1);
  }
  return out;
}

/** No NUL anywhere (PostgreSQL text cannot hold one: a 500 at the database); JSON `null` fields dropped first. */
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

/** 422 with the field list, as Gitea; unknown fields are dropped, not refused (clients of newer Gitea send them). */
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
