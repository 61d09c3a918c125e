import { Injectable, type PipeTransform, type ArgumentMetadata } from '@nestjs/common';
import { DomainError, MAX_INT32 } from '@cairn/contracts';

/** 400 naming the parameter; beyond {@link MAX_INT32} nothing can exist: 404, as for any missing row. */
export function parsePositiveId(value: string | number | undefined, name = 'id'): number {
  // The global validation pipe may already have turned the text into a number (NaN for non-digits).
  const n = typeof value === 'number' ? value : value !== undefined && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 1) throw DomainError.invalid(`${name} must be a positive integer`);
  if (n > MAX_INT32) {
    const shown = typeof value === 'string' ? ` ${value}` : '';
    throw DomainError.notFound(`${name}${shown} does not exist`);
  }
  return n;
}

@Injectable()
export class PositiveIntPipe implements PipeTransform<string | number, number> {
  transform(value: string | number, metadata: ArgumentMetadata): number {
    return parsePositiveId(value, metadata.data ?? 'id');
  }
}

/** As Gitea parses `{runner_id}`: non-numbers become 0, so the call answers 404 after the rights were checked. */
@Injectable()
export class RunnerIdPipe implements PipeTransform<string | number, number> {
  transform(value: string | number): number {
    const n = typeof value === 'number' ? value : /^\d{1,10}$/.test(value) ? Number(value) : 0;
    return Number.isInteger(n) && n > 0 && n <= MAX_INT32 ? n : 0;
  }
}
