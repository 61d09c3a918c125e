import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, IdentitySubjects, type UserDto } from '@cairn/contracts';
import { actorOf, startIdentityTestEnv, type IdentityTestEnv } from '../../test/identity-test-env.js';

/** `identity.user.settings.get` / `.update` over a real NATS connection against the real database. */
describe('user settings over NATS (integration)', () => {
  let env: IdentityTestEnv;
  let dora: UserDto;
  let eve: UserDto;

  beforeAll(async () => {
    env = await startIdentityTestEnv();
    dora = await env.createUser('dora');
    eve = await env.createUser('eve');
  });
  afterAll(async () => {
    await env?.close();
  });

  it('starts with Gitea-shaped defaults', async () => {
    const settings = await env.rpc.send(IdentitySubjects.userSettingsGet, { actor: actorOf(dora) });
    expect(settings).toEqual({
      full_name: dora.full_name, website: '', description: '', location: '', language: '',
      hide_email: false, hide_activity: false, diff_view_style: '', theme: '',
    });
  });

  it('updates only the given fields of the caller\'s own row and keeps them', async () => {
    const updated = await env.rpc.send(IdentitySubjects.userSettingsUpdate, {
      actor: actorOf(dora),
      body: { full_name: 'Dora D.', website: 'https://dora.example.com', location: 'Lisbon', hide_email: true },
    });
    expect(updated).toMatchObject({
      full_name: 'Dora D.', website: 'https://dora.example.com', location: 'Lisbon', hide_email: true, description: '',
    });
    const partial = await env.rpc.send(IdentitySubjects.userSettingsUpdate, {
      actor: actorOf(dora),
      body: { description: 'Maps and trains', diff_view_style: 'split', website: '' },
    });
    expect(partial).toMatchObject({
      full_name: 'Dora D.', website: '', description: 'Maps and trains', location: 'Lisbon', diff_view_style: 'split',
    });
    const { rows } = await env.sql.query(
      'SELECT full_name, location, hide_email, diff_view_style FROM identity.users WHERE id = $1', [dora.id],
    );
    expect(rows[0]).toEqual({ full_name: 'Dora D.', location: 'Lisbon', hide_email: true, diff_view_style: 'split' });
    expect(await env.rpc.send(IdentitySubjects.userSettingsGet, { actor: actorOf(eve) })).toMatchObject({
      location: '', hide_email: false,
    });
    const profile = await env.rpc.send(IdentitySubjects.userGet, { actor: null, username: 'dora' });
    expect(profile).toMatchObject({ full_name: 'Dora D.', location: 'Lisbon', description: 'Maps and trains' });
  });

  // schemathesis sent `"website": null` and got a 500 (Prisma refused null for the column).
  it('leaves fields sent as null as they are, like Gitea (its options are Go pointers)', async () => {
    const before = await env.rpc.send(IdentitySubjects.userSettingsGet, { actor: actorOf(eve) });
    const body = { website: null, full_name: null, hide_email: null, location: 'Porto' } as unknown as { location: string };
    const updated = await env.rpc.send(IdentitySubjects.userSettingsUpdate, { actor: actorOf(eve), body });
    expect(updated).toEqual({ ...before, location: 'Porto' });
    await env.rpc.send(IdentitySubjects.userSettingsUpdate, { actor: actorOf(eve), body: { location: '' } });
  });

  it('refuses a website that is not an http(s) URL, over-long fields and unknown diff styles, changing nothing', async () => {
    const before = await env.rpc.send(IdentitySubjects.userSettingsGet, { actor: actorOf(eve) });
    const refused = [
      { website: 'javascript:alert(1)' },
      { website: 'not a url', full_name: 'Eve' },
      { full_name: 'x'.repeat(101) },
      { location: 'x'.repeat(51) },
      { description: 'x'.repeat(256) },
      { diff_view_style: 'sideways' },
    ];
    for (const body of refused) {
      await expect(env.rpc.send(IdentitySubjects.userSettingsUpdate, { actor: actorOf(eve), body }))
        .rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
    }
    expect(await env.rpc.send(IdentitySubjects.userSettingsGet, { actor: actorOf(eve) })).toEqual(before);
  });

  it('needs a signed-in caller and a body', async () => {
    await expect(env.rpc.send(IdentitySubjects.userSettingsGet, { actor: null }))
      .rejects.toMatchObject({ code: ErrorCode.UNAUTHENTICATED });
    await expect(env.rpc.send(IdentitySubjects.userSettingsUpdate, { actor: actorOf(eve) }))
      .rejects.toMatchObject({ code: ErrorCode.INVALID_ARGUMENT });
  });
});
