import 'reflect-metadata';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import {
  CreateLabelRequest, DomainError, ErrorCode, IdentitySubjects, LabelSubjects, UsernameRequest,
  type AccessLevel, type LabelDto, type UserDto,
} from '@cairn/contracts';
import { firstValueFrom, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { RepoAccessCheck, RpcHandler } from './rpc-handler.js';

// Decorated by hand: the test transform does not parse parameter decorators (`@Payload()`).
class Handlers {
  create(_req: CreateLabelRequest): Promise<LabelDto> {
    throw new Error('not called');
  }

  undeclared(_req: UsernameRequest): Promise<UserDto> {
    throw new Error('not called');
  }
}
const descriptorOf = (key: keyof Handlers) => Object.getOwnPropertyDescriptor(Handlers.prototype, key)!;
RpcHandler(LabelSubjects.create)(Handlers.prototype, 'create', descriptorOf('create') as TypedPropertyDescriptor<Handlers['create']>);
RpcHandler(IdentitySubjects.userGet)(Handlers.prototype, 'undeclared', descriptorOf('undeclared') as TypedPropertyDescriptor<Handlers['undeclared']>);

const interceptorsOf = (method: object): unknown[] => Reflect.getMetadata(INTERCEPTORS_METADATA, method) ?? [];

function rpcContext(data: unknown): ExecutionContext {
  return { switchToRpc: () => ({ getData: () => data }) } as unknown as ExecutionContext;
}

async function run(check: RepoAccessCheck, access: AccessLevel, actor: object | null = { id: 1 }): Promise<unknown> {
  const next: CallHandler = { handle: () => of('handled') };
  return firstValueFrom(check.intercept(rpcContext({ actor, access }), next)).catch((err: unknown) => err);
}

describe('@RpcHandler and the declared access need', () => {
  it('puts the subject\'s declared need in front of the handler, and nothing for a subject without one', () => {
    const [check, ...rest] = interceptorsOf(Handlers.prototype.create);
    expect(check).toBeInstanceOf(RepoAccessCheck);
    expect((check as RepoAccessCheck).need).toBe('write');
    expect(rest).toEqual([]);
    expect(interceptorsOf(Handlers.prototype.undeclared)).toEqual([]);
  });

  it('refuses below the need as the gateway does (401 anonymous, else 403) and lets the rest through', async () => {
    const check = new RepoAccessCheck('write');
    expect(await run(check, 'write')).toBe('handled');
    expect(await run(check, 'admin')).toBe('handled');
    const refused = await run(check, 'read');
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(((await run(check, 'read', null)) as DomainError).code).toBe(ErrorCode.UNAUTHENTICATED);
    expect(((await run(check, 'bogus' as AccessLevel)) as DomainError).code).toBe(ErrorCode.PERMISSION_DENIED);
  });
});
