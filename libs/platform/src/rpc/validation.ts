import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError, ErrorCode } from '@cairn/contracts';

/** Flattens class-validator errors into `field: problem` strings (nested fields joined with dots). */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    for (const msg of Object.values(e.constraints ?? {})) {
      out.push(msg.startsWith(e.property) ? `${path}${msg.slice(e.property.length)}` : `${path}: ${msg}`);
    }
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, path));
  }
  return out;
}

/**
 * Services validate every message again (messages can come from any service): the same contract classes, with
 * unknown fields stripped. A failure is INVALID_ARGUMENT with the field list.
 */
export function createRpcValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    exceptionFactory: (errors) =>
      new DomainError(ErrorCode.INVALID_ARGUMENT, 'invalid message', flattenValidationErrors(errors)),
  });
}
