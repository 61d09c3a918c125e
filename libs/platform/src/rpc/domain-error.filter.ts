import { Catch, Logger, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { DomainError, ErrorCode, errorEnvelope, type ErrorEnvelope } from '@cairn/contracts';
import { randomUUID } from 'node:crypto';
import { throwError, type Observable } from 'rxjs';
import { isDatabaseUnavailable } from '../db/db-unavailable.js';
import { currentRpcDeadline } from './rpc-deadline.js';

/** Nest's default would reply `{status:'error', message:'Internal server error'}` and drop the code. */
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
    const deadline = currentRpcDeadline();
    if (deadline !== undefined && Date.now() >= deadline) {
      // Work stopped by its deadline (rpcDeadlineSignal): the caller has given up; not a bug to log.
      return errorEnvelope(ErrorCode.TIMEOUT, 'the deadline passed while the work ran; it was stopped');
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`database unavailable: ${exception instanceof Error ? exception.message : String(exception)}`);
      return errorEnvelope(ErrorCode.UNAVAILABLE, 'the database is not reachable right now; try again shortly');
    }
    const errorId = randomUUID();
    this.logger.error(exception instanceof Error ? exception : String(exception), `errorId=${errorId}`);
    return errorEnvelope(ErrorCode.INTERNAL, 'internal error', undefined, errorId);
  }
}
