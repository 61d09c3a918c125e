import { describe, expect, it } from 'vitest';
import { UnprocessableEntityException } from '@nestjs/common';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { createEdgeValidationPipe, findNulCharacter, withoutNulls } from './validation.js';

describe('findNulCharacter', () => {
  it('finds the first NUL in nested strings and names the field', () => {
    expect(findNulCharacter({ a: 'ok', b: { c: ['x', 'y\0'] } }, '')).toBe('b.c[1]');
    expect(findNulCharacter('a\0', 'username')).toBe('username');
    expect(findNulCharacter({ a: 'ok', n: 1, z: null }, '')).toBeNull();
  });
});

describe('edge validation pipe', () => {
  const pipe = createEdgeValidationPipe();

  it('refuses NUL characters: 400 in path parameters, 422 in bodies and queries', async () => {
    const param = pipe.transform('a\0b', { type: 'param', data: 'username', metatype: String });
    await expect(param).rejects.toBeInstanceOf(DomainError);
    await expect(param).rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
    await expect(pipe.transform({ full_name: 'x\0' }, { type: 'body', metatype: Object })).rejects.toBeInstanceOf(
      UnprocessableEntityException,
    );
    await expect(pipe.transform({ q: '\0' }, { type: 'query', metatype: Object })).rejects.toBeInstanceOf(
      UnprocessableEntityException,
    );
  });

  it('reads a body field that is null as absent, at any depth (Go clients send null for unset optional fields)', async () => {
    expect(withoutNulls({ a: null, b: 'x', c: { d: null, e: [null, { f: null, g: 1 }] } })).toEqual({ b: 'x', c: { e: [null, { g: 1 }] } });
    await expect(pipe.transform({ full_name: null, location: 'here' }, { type: 'body', metatype: Object })).resolves.toEqual({ location: 'here' });
  });

  it('leaves other values to the contract validation', async () => {
    await expect(pipe.transform('alice', { type: 'param', data: 'username', metatype: String })).resolves.toBe('alice');
  });
});
