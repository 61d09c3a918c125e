import { UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  assertRepoAccess, repoAccessNeed, type AccessLevel, type ActorDto, type RepoAccessNeed, type RpcReply, type RpcRequest,
  type RpcSubject,
} from '@cairn/contracts';
import { throwError, type Observable } from 'rxjs';

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** An impossible member on a payload class mismatch, so it is reported. */
type PayloadMustBe<Actual, Expected> = Same<Actual, Expected> extends true ? unknown : { payloadClassMustBe: Expected };

type HandlerOf<S extends RpcSubject> = (request: RpcRequest<S>) => RpcReply<S> | Promise<RpcReply<S>>;

/** An interceptor rather than a guard so the refusal is timed and traced like any other reply. */
export class RepoAccessCheck implements NestInterceptor {
  constructor(readonly declared: RepoAccessNeed) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToRpc().getData<{ actor?: ActorDto | null; access?: AccessLevel; repo?: unknown } | undefined>();
    if (this.declared.repoOptional && req?.repo === undefined) return next.handle();
    try {
      assertRepoAccess({ actor: req?.actor ?? null, access: req?.access ?? 'none' }, this.declared.need, this.declared.denied);
    } catch (err) {
      return throwError(() => err);
    }
    return next.handle();
  }
}

/** The `@Payload()` class must be exactly the request type: the validation pipe would strip fields a wider class lacks. */
export function RpcHandler<S extends RpcSubject>(subject: S) {
  const pattern = MessagePattern(subject);
  const declared = repoAccessNeed(subject);
  const accessCheck = declared ? UseInterceptors(new RepoAccessCheck(declared)) : undefined;
  return <H extends HandlerOf<S>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H> & PayloadMustBe<Parameters<H>[0], RpcRequest<S>>,
  ): void => {
    accessCheck?.(target, key, descriptor);
    pattern(target, key, descriptor);
  };
}
