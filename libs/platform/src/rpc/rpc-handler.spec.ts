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

async function run(check: RepoAccessCheck, access: AccessLevel | undefined, actor: object | null = { id: 1 }, withRepo = true): Promise<unknown> {
  const next: CallHandler = { handle: () => of('handled') };
  const data = { actor, access, ...(withRepo ? { repo: { id: 7 } } : {}) };
  return firstValueFrom(check.intercept(rpcContext(data), next)).catch((err: unknown) => err);
}

describe('@RpcHandler and the declared access need', () => {
  it('puts the subject\'s declared need in front of the handler, and nothing for a subject without one', () => {
    const [check, ...rest] = interceptorsOf(Handlers.prototype.create);
    expect(check).toBeInstanceOf(RepoAccessCheck);
    expect((check as RepoAccessCheck).declared.need).toBe('write');
    expect(rest).toEqual([]);
    expect(interceptorsOf(Handlers.prototype.undeclared)).toEqual([]);
  });

  it('refuses below the need as the gateway does (401 anonymous, else 403) and lets the rest through', async () => {
    const check = new RepoAccessCheck({ need: 'write' });
    expect(await run(check, 'write')).toBe('handled');
    expect(await run(check, 'admin')).toBe('handled');
    const refused = await run(check, 'read');
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(((await run(check, 'read', null)) as DomainError).code).toBe(ErrorCode.UNAUTHENTICATED);
    expect(((await run(check, 'bogus' as AccessLevel)) as DomainError).code).toBe(ErrorCode.PERMISSION_DENIED);
  });

  it('refuses with the operation\'s own wording when it declares one', async () => {
    const refused = await run(new RepoAccessCheck({ need: 'admin', denied: 'Must be repo admin' }), 'write');
    expect(refused).toMatchObject({ code: ErrorCode.PERMISSION_DENIED, message: 'Must be repo admin' });
  });

  it('judges a subject with a form about no repository only when its message names one', async () => {
    const check = new RepoAccessCheck({ need: 'read', repoOptional: true });
    expect(await run(check, undefined, { id: 1 }, false)).toBe('handled');
    expect(await run(check, 'read')).toBe('handled');
    expect(((await run(check, undefined)) as DomainError).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(((await run(new RepoAccessCheck({ need: 'read' }), undefined, { id: 1 }, false)) as DomainError).code)
      .toBe(ErrorCode.PERMISSION_DENIED);
  });
});
