import { UseInterceptors, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  assertRepoAccess, repoAccessNeed, type AccessLevel, type ActorDto, type RepoAccessNeed, type RpcReply, type RpcRequest,
  type RpcSubject,
} from '@cairn/contracts';
import { throwError, type Observable } from 'rxjs';

/** True when A and B are the same type, not merely assignable one way. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Adds an impossible member to the descriptor type when the payload class differs, so the mismatch is reported. */
type PayloadMustBe<Actual, Expected> = Same<Actual, Expected> extends true ? unknown : { payloadClassMustBe: Expected };

type HandlerOf<S extends RpcSubject> = (request: RpcRequest<S>) => RpcReply<S> | Promise<RpcReply<S>>;

/**
 * Refuses a message whose `access` is below its subject's declared need (`REPO_ACCESS_NEEDS`), before validation
 * and the handler; an interceptor rather than a guard so the refusal is timed and traced like any other reply.
 */
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

/**
 * `@MessagePattern(subject)` for a subject of `RpcContract`, checked at compile time: the handler's `@Payload()` class
 * must be exactly the pair's request type (the validation pipe validates with it, so a wider class would strip fields
 * the caller sends) and its result must be the pair's reply type. A subject with a declared access need is refused
 * below it here, so handlers do not check that level again.
 */
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
