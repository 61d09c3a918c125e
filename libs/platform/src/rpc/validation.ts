import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError, ErrorCode } from '@cairn/contracts';

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

/** Services validate every message again (messages can come from any service), unknown fields stripped. */
export function createRpcValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    exceptionFactory: (errors) =>
      new DomainError(ErrorCode.INVALID_ARGUMENT, 'invalid message', flattenValidationErrors(errors)),
  });
}
