import { Catch, Logger, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { DomainError, ErrorCode, errorEnvelope, type ErrorEnvelope } from '@cairn/contracts';
import { randomUUID } from 'node:crypto';
import { throwError, type Observable } from 'rxjs';

/**
 * Turns anything a message handler throws into the error envelope the caller decodes. Nest's default would reply
 * `{status:'error', message:'Internal server error'}` and drop the code, so every service registers this globally.
 */
@Catch()
export class DomainErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('DomainErrorFilter');

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => this.toEnvelope(exception));
  }

  toEnvelope(exception: unknown): ErrorEnvelope {
    if (exception instanceof DomainError) return exception.toEnvelope();
    const prismaCode = (exception as { code?: unknown })?.code;
    if (prismaCode === 'P2002') return errorEnvelope(ErrorCode.ALREADY_EXISTS, 'already exists');
    if (prismaCode === 'P2025') return errorEnvelope(ErrorCode.NOT_FOUND, 'not found');
    const errorId = randomUUID();
    this.logger.error(exception instanceof Error ? exception : String(exception), `errorId=${errorId}`);
    return errorEnvelope(ErrorCode.INTERNAL, 'internal error', undefined, errorId);
  }
}
