import { MessagePattern } from '@nestjs/microservices';
import type { RpcReply, RpcRequest, RpcSubject } from '@cairn/contracts';

/** True when A and B are the same type, not merely assignable one way. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Adds an impossible member to the descriptor type when the payload class differs, so the mismatch is reported. */
type PayloadMustBe<Actual, Expected> = Same<Actual, Expected> extends true ? unknown : { payloadClassMustBe: Expected };

type HandlerOf<S extends RpcSubject> = (request: RpcRequest<S>) => RpcReply<S> | Promise<RpcReply<S>>;

/**
 * `@MessagePattern(subject)` for a subject of `RpcContract`, checked at compile time: the handler's `@Payload()` class
 * must be exactly the pair's request type (the validation pipe validates with it, so a wider class would strip fields
 * the caller sends) and its result must be the pair's reply type.
 */
export function RpcHandler<S extends RpcSubject>(subject: S) {
  const pattern = MessagePattern(subject);
  return <H extends HandlerOf<S>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H> & PayloadMustBe<Parameters<H>[0], RpcRequest<S>>,
  ): void => {
    pattern(target, key, descriptor);
  };
}
