import { DomainError, ErrorCode, SCOPE_CATEGORIES } from '@cairn/contracts';
import { describe, expect, it } from 'vitest';
import { formRejection } from './form-error.js';
import { profileFromForm } from './profile-form.js';
import { qrCodeSvg } from './qr-code.js';
import { scopeField, scopesFromForm } from './token-scopes-form.js';

describe('token scopes form', () => {
  it('turns per-category choices into Gitea scope names, skipping "no access"', () => {
    // In the categories' order, as Gitea lists them.
    expect(scopesFromForm({ scope_user: 'read', scope_repository: 'write', scope_issue: '' })).toEqual(['write:repository', 'read:user']);
    expect(scopesFromForm({})).toEqual([]);
    expect(SCOPE_CATEGORIES.map(scopeField)).toContain('scope_admin');
  });

  it('refuses a level that is not offered', () => {
    expect(() => scopesFromForm({ scope_admin: 'all' })).toThrow(/scope_admin must be one of/);
  });
});

describe('profile form', () => {
  it('trims the text fields and reads the e-mail checkbox (absent when unchecked)', () => {
    expect(profileFromForm({ full_name: ' Ada ', website: 'https://ada.example ', location: '', hide_email: 'on' })).toEqual({
      full_name: 'Ada', description: '', website: 'https://ada.example', location: '', hide_email: true,
    });
    expect(profileFromForm({}).hide_email).toBe(false);
  });
});

describe('form rejections', () => {
  it('shows refused input again with the message, and leaves other failures to the error page', () => {
    expect(formRejection(DomainError.unprocessable('bad key', ['too short']))).toEqual({ error: 'bad key: too short', status: 422 });
    expect(formRejection(DomainError.conflict('taken'))).toEqual({ error: 'taken', status: 422 });
    expect(() => formRejection(DomainError.notFound())).toThrow(DomainError);
    expect(formRejection(DomainError.notFound('no e-mail of yours'), { notFoundIsInput: true })).toEqual({ error: 'no e-mail of yours', status: 422 });
    expect(() => formRejection(new Error('boom'))).toThrow('boom');
    expect(() => formRejection(new DomainError(ErrorCode.PERMISSION_DENIED, 'no'))).toThrow('no');
  });
});

describe('QR code', () => {
  it('renders an accessible inline SVG whose label is escaped', async () => {
    const svg = await qrCodeSvg('otpauth://totp/Cairn:alice?secret=JBSWY3DPEHPK3PXP&issuer=Cairn', 'QR "code"');
    expect(svg).toMatch(/^<svg role="img" aria-label="QR &quot;code&quot;" xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('<path');
    expect(svg).not.toMatch(/<script|style=/);
  });
});
