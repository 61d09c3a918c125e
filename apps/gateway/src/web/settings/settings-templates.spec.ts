import { describe, expect, it } from 'vitest';
import { createViews } from '../core/views.js';
import { qrCodeSvg } from './qr-code.js';

const views = createViews(false);
const layout = { csrf: 'CSRF-TOKEN', actor: { login: 'alice' } };
const token = { id: 3, name: 'ci<b>', sha1: '', token_last_eight: '12345678', scopes: ['read:user'], last_used_at: null };

function expectSafeForms(html: string): void {
  expect(html).not.toMatch(/<script|style=/);
  const forms = html.match(/<form method="post"/g)?.length ?? 0;
  expect(html.match(/name="_csrf" value="CSRF-TOKEN"/g)?.length ?? 0).toBe(forms);
}

describe('settings templates', () => {
  it('render tokens, a one-time token, keys and the two-factor pages, escaping what users typed', async () => {
    const applications = views.render('settings/applications', {
      tab: 'applications', tokens: [token], categories: [{ name: 'user', field: 'scope_user' }],
      created: { ...token, sha1: 'f'.repeat(40) }, error: 'bad <x>', layout,
    });
    expectSafeForms(applications);
    expect(applications).toContain('value="ffffffffffffffffffffffffffffffffffffffff"');
    expect(applications).toContain('ci&lt;b&gt;');
    expect(applications).toContain('bad &lt;x&gt;');
    expect(applications).toContain('aria-current="page"');

    const keys = views.render('settings/keys', {
      tab: 'keys', layout, verificationToken: 'tok', verifyKey: 'gpg:ABC',
      sshKeys: [{ id: 1, title: 't', fingerprint: 'SHA256:x', verified: false, last_used_at: null }],
      gpgKeys: [{ id: 2, key_id: 'ABC', emails: [{ email: 'e@x', verified: true }], verified: true, can_sign: true }],
    });
    expectSafeForms(keys);
    expect(keys).toContain('<option value="gpg:ABC" selected>');

    const qrCode = await qrCodeSvg('otpauth://totp/Cairn:alice?secret=ABC', 'QR code');
    const enrol = views.render('settings/two-factor-enroll', { tab: 'security', secret: 'SECRETBASE32', qrCode, layout });
    expectSafeForms(enrol);
    expect(enrol).toContain('<svg role="img" aria-label="QR code"');
    // After a wrong code: no secret and no QR code, a way to start again.
    const retry = views.render('settings/two-factor-enroll', { tab: 'security', error: 'invalid code', layout });
    expect(retry).not.toContain('<svg');
    expect(retry).toContain('Start again with a new one');

    for (const enrolled of [true, false]) expectSafeForms(views.render('settings/security', { tab: 'security', enrolled, layout }));
    expect(views.render('settings/two-factor-recovery', { tab: 'security', recoveryCode: 'RC12', layout })).toContain('value="RC12"');
  });
});
