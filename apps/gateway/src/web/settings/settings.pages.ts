import { DomainError, IdentitySubjects, SCOPE_CATEGORIES, type ActorDto } from '@cairn/contracts';
import { parsePositiveId } from '../../http/params.js';
import { page, redirect, requireSignIn, type PageContext, type PageResult, type WebKit } from '../core/web-kit.js';
import { formRejection } from './form-error.js';
import { profileFromForm } from './profile-form.js';
import { qrCodeSvg } from './qr-code.js';
import { scopeField, scopesFromForm } from './token-scopes-form.js';

/** How many tokens and keys a settings page lists (the services' page size cap). */
const LIST_LIMIT = 50;

interface FormOutcome {
  error?: string;
  status?: number;
  [key: string]: unknown;
}

/** Gitea's `/user/settings/**`; new secrets are rendered once in the POST's answer, never stored or redirected to. */
export function registerSettingsPages(kit: WebKit): void {
  const rpc = kit.rpc;

  // Profile: the same subjects as `GET/PATCH /api/v1/user/settings`; a refused form is shown again with its values.
  const profile = async (ctx: PageContext, actor: ActorDto, outcome: FormOutcome = {}): Promise<PageResult> => {
    const settings = outcome.settings ?? (await rpc.send(IdentitySubjects.userSettingsGet, { actor }));
    return page('settings/profile', 'Profile', { tab: 'profile', profile: ctx.user, settings, ...outcome }, outcome.status);
  };
  kit.get('/user/settings', (ctx) => profile(ctx, requireSignIn(ctx)));
  kit.post('/user/settings', async (ctx) => {
    const actor = requireSignIn(ctx);
    const body = profileFromForm(ctx.form);
    try {
      await rpc.send(IdentitySubjects.userSettingsUpdate, { actor, body });
    } catch (err) {
      return profile(ctx, actor, { ...formRejection(err), settings: body });
    }
    await ctx.flash('success', 'Your profile has been updated.');
    return redirect('/user/settings');
  });

  const applications = async (actor: ActorDto, outcome: FormOutcome = {}): Promise<PageResult> => {
    const tokens = await rpc.send(IdentitySubjects.tokenList, { actor, username: actor.login, query: { limit: LIST_LIMIT } });
    const categories = SCOPE_CATEGORIES.map((name) => ({ name, field: scopeField(name) }));
    return page('settings/applications', 'Applications', { tab: 'applications', tokens: tokens.items, categories, ...outcome }, outcome.status);
  };
  kit.get('/user/settings/applications', (ctx) => applications(requireSignIn(ctx)));
  kit.post('/user/settings/applications', async (ctx) => {
    const actor = requireSignIn(ctx);
    try {
      const body = { name: (ctx.form.name ?? '').trim(), scopes: scopesFromForm(ctx.form) };
      const created = await rpc.send(IdentitySubjects.tokenCreate, { actor, username: actor.login, body });
      return applications(actor, { created });
    } catch (err) {
      return applications(actor, { ...formRejection(err), name: ctx.form.name ?? '' });
    }
  });
  kit.post('/user/settings/applications/delete', async (ctx) => {
    const actor = requireSignIn(ctx);
    const id = parsePositiveId(ctx.form.id);
    await rpc.send(IdentitySubjects.tokenDelete, { actor, username: actor.login, token: String(id) });
    await ctx.flash('success', 'The access token has been deleted. Applications using it no longer have access.');
    return redirect('/user/settings/applications');
  });

  // SSH and OpenPGP keys, and their verification with a signature over the user's token.
  const keys = async (actor: ActorDto, outcome: FormOutcome = {}): Promise<PageResult> => {
    const [ssh, gpg, verification] = await Promise.all([
      rpc.send(IdentitySubjects.keyList, { actor, query: { limit: LIST_LIMIT } }),
      rpc.send(IdentitySubjects.gpgKeyList, { actor, query: { limit: LIST_LIMIT } }),
      rpc.send(IdentitySubjects.keyVerificationToken, { actor }),
    ]);
    return page(
      'settings/keys',
      'SSH / GPG keys',
      { tab: 'keys', sshKeys: ssh.items, gpgKeys: gpg.items, verificationToken: verification.token, ...outcome },
      outcome.status,
    );
  };
  kit.get('/user/settings/keys', (ctx) => keys(requireSignIn(ctx)));
  kit.post('/user/settings/keys', async (ctx) => {
    const actor = requireSignIn(ctx);
    const content = (ctx.form.content ?? '').trim();
    try {
      if (ctx.form.type === 'gpg') {
        const signature = (ctx.form.signature ?? '').trim();
        await rpc.send(IdentitySubjects.gpgKeyCreate, {
          actor, body: { armored_public_key: content, ...(signature ? { armored_signature: signature } : {}) },
        });
      } else {
        await rpc.send(IdentitySubjects.keyCreate, { actor, body: { title: (ctx.form.title ?? '').trim(), key: content } });
      }
    } catch (err) {
      // A GPG key without any of the user's e-mails is a 404 that asks for a signature over the token (Gitea's).
      const refusal = formRejection(err, { notFoundIsInput: true });
      return keys(actor, { ...refusal, addType: ctx.form.type === 'gpg' ? 'gpg' : 'ssh', title: ctx.form.title ?? '', content });
    }
    await ctx.flash('success', ctx.form.type === 'gpg' ? 'The GPG key has been added.' : 'The SSH key has been added.');
    return redirect('/user/settings/keys');
  });
  kit.post('/user/settings/keys/delete', async (ctx) => {
    const actor = requireSignIn(ctx);
    const id = parsePositiveId(ctx.form.id);
    const subject = ctx.form.type === 'gpg' ? IdentitySubjects.gpgKeyDelete : IdentitySubjects.keyDelete;
    await rpc.send(subject, { actor, id });
    await ctx.flash('success', 'The key has been removed.');
    return redirect('/user/settings/keys');
  });
  kit.post('/user/settings/keys/verify', async (ctx) => {
    const actor = requireSignIn(ctx);
    const signature = (ctx.form.signature ?? '').trim();
    // The key select's values are `ssh:<id>` and `gpg:<key id>`.
    const [type, keyId] = splitOnce(ctx.form.key ?? '', ':');
    try {
      if (type === 'gpg') {
        await rpc.send(IdentitySubjects.gpgKeyVerify, { actor, body: { key_id: keyId, armored_signature: signature } });
      } else if (type === 'ssh') {
        await rpc.send(IdentitySubjects.keyVerify, { actor, body: { key_id: parsePositiveId(keyId, 'key'), signature } });
      } else {
        throw DomainError.unprocessable('choose the key to verify');
      }
    } catch (err) {
      return keys(actor, { ...formRejection(err), verifyKey: ctx.form.key });
    }
    await ctx.flash('success', 'The key has been verified.');
    return redirect('/user/settings/keys');
  });

  // Two-factor authentication: enrol (secret and QR code shown once), confirm with a code, disable with a code.
  const security = (ctx: PageContext, outcome: FormOutcome = {}): PageResult =>
    page('settings/security', 'Security', { tab: 'security', enrolled: requireSignIn(ctx).hasTwoFactor, ...outcome }, outcome.status);
  kit.get('/user/settings/security', async (ctx) => security(ctx));
  // The enforced-two-factor alert links here: a GET never starts an enrolment, it offers the button that does.
  kit.get('/user/settings/security/two_factor/enroll', async (ctx) => security(ctx));
  kit.post('/user/settings/security/two_factor/enroll', async (ctx) => {
    const actor = requireSignIn(ctx);
    try {
      const enrolment = await rpc.send(IdentitySubjects.twoFactorEnroll, { actor });
      const qrCode = await qrCodeSvg(enrolment.otpauth_url, 'QR code of the two-factor secret for your authenticator app');
      return page('settings/two-factor-enroll', 'Enrol in two-factor authentication', {
        tab: 'security', secret: enrolment.secret, qrCode,
      });
    } catch (err) {
      return security(ctx, formRejection(err));
    }
  });
  kit.post('/user/settings/security/two_factor/confirm', async (ctx) => {
    const actor = requireSignIn(ctx);
    try {
      const confirmed = await rpc.send(IdentitySubjects.twoFactorConfirm, { actor, passcode: (ctx.form.passcode ?? '').trim() });
      // Enrolled by this very request: the layout (enforced-policy alert) must see it already.
      actor.hasTwoFactor = true;
      return page('settings/two-factor-recovery', 'Two-factor authentication enrolled', {
        tab: 'security', recoveryCode: confirmed.scratch_token,
      });
    } catch (err) {
      // The secret is not shown again: the authenticator already has it; a lost one means starting over.
      return page('settings/two-factor-enroll', 'Enrol in two-factor authentication', { tab: 'security', ...formRejection(err) }, 422);
    }
  });
  kit.post('/user/settings/security/two_factor/disable', async (ctx) => {
    const actor = requireSignIn(ctx);
    try {
      await rpc.send(IdentitySubjects.twoFactorDisable, { actor, passcode: (ctx.form.passcode ?? '').trim() });
    } catch (err) {
      return security(ctx, formRejection(err));
    }
    await ctx.flash('success', 'Two-factor authentication has been disabled.');
    return redirect('/user/settings/security');
  });
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + separator.length)];
}
