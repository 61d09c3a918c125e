import { DomainError, ErrorCode, IdentitySubjects, MIN_PASSWORD_LENGTH } from '@cairn/contracts';
import type { FastifyRequest } from 'fastify';
import {
  CHANGE_PASSWORD_PATH, page, redirect, requireSignIn, safeRedirectTarget, type PageContext, type PageResult, type WebKit,
} from '../core/web-kit.js';
import { formRejection } from '../settings/form-error.js';

const SIGN_IN = '/user/login';
const SIGN_UP = '/user/sign_up';
const TWO_FACTOR = '/user/two_factor';
const RECOVERY = '/user/two_factor/scratch';
/** Where Gitea sends a user who signed in with their recovery code: the page to enrol again. */
const AFTER_RECOVERY = '/user/settings/security';

/** Every step behind the API's sign-in throttle; completing sign-in gives the browser a new session id. */
export function registerAuthPages(web: WebKit): void {
  const open = { public: true };

  web.get<Record<string, string>, { redirect_to?: string }>(SIGN_IN, async (ctx) => {
    if (ctx.actor) return redirect(safeRedirectTarget(ctx.query.redirect_to) ?? '/');
    return signInForm(ctx, { login: '', redirectTo: safeRedirectTarget(ctx.query.redirect_to) ?? '' });
  }, open);

  web.post(SIGN_IN, async (ctx) => {
    const login = (ctx.form.user_name ?? '').trim();
    const redirectTo = safeRedirectTarget(ctx.form.redirect_to);
    if (!login || !ctx.form.password) {
      return signInForm(ctx, { login, redirectTo: redirectTo ?? '', error: 'Enter your username or email and your password.' });
    }
    let reply;
    try {
      reply = await web.rpc.send(IdentitySubjects.authWebSignIn, {
        login, password: ctx.form.password, clientAddress: clientAddress(ctx.req),
      });
    } catch (err) {
      if (!isUnauthenticated(err)) throw err;
      return signInForm(ctx, { login, redirectTo: redirectTo ?? '', error: err.message }, 401);
    }
    if (!reply.twoFactorRequired) {
      await web.signIn(ctx.req, ctx.reply, reply.userId);
      return redirect(redirectTo ?? '/');
    }
    const session = await ctx.session();
    session.pendingUserId = reply.userId;
    session.redirectTo = redirectTo;
    await web.saveSession(session);
    return redirect(TWO_FACTOR);
  }, open);

  for (const method of ['totp', 'recovery'] as const) {
    const path = method === 'totp' ? TWO_FACTOR : RECOVERY;
    web.get(path, async (ctx) => {
      if (ctx.actor) return redirect('/');
      if ((await ctx.session()).pendingUserId === undefined) return redirect(SIGN_IN);
      return codeForm(ctx, method);
    }, open);

    web.post(path, async (ctx) => {
      const session = await ctx.session();
      const userId = session.pendingUserId;
      if (userId === undefined) return redirect(SIGN_IN);
      const code = (ctx.form.passcode ?? '').trim();
      if (!code) return codeForm(ctx, method, 'Enter the code.');
      let reply;
      try {
        reply = await web.rpc.send(IdentitySubjects.authWebSecondFactor, {
          userId, method, code: code.slice(0, 64), clientAddress: clientAddress(ctx.req),
        });
      } catch (err) {
        if (!isUnauthenticated(err)) throw err;
        return codeForm(ctx, method, err.message, 401);
      }
      const signedIn = await web.signIn(ctx.req, ctx.reply, reply.userId);
      const target = signedIn.redirectTo;
      delete signedIn.redirectTo;
      if (reply.recoveryCodeUsed) {
        signedIn.flash = [{
          kind: 'warning',
          text: 'You have used your recovery code: it cannot be used again. Enrol two-factor authentication again to get a new one.',
        }];
      }
      await web.saveSession(signedIn);
      return redirect(reply.recoveryCodeUsed ? AFTER_RECOVERY : (target ?? '/'));
    }, open);
  }

  // Sign-up (Gitea's form fields). identity-service decides everything (open or not, names, e-mail, password length,
  // throttle); the page only compares the two password fields and says what was refused.
  web.get(SIGN_UP, async (ctx) => {
    if (ctx.actor) return redirect('/');
    return signUpForm(ctx, web, { userName: '', email: '' });
  }, open);

  web.post(SIGN_UP, async (ctx) => {
    if (ctx.actor) return redirect('/');
    const userName = (ctx.form.user_name ?? '').trim();
    const email = (ctx.form.email ?? '').trim();
    const password = ctx.form.password ?? '';
    if (web.settings.disableRegistration) return signUpForm(ctx, web, { userName, email }, 403);
    if (password !== (ctx.form.retype ?? '')) {
      return signUpForm(ctx, web, { userName, email, error: 'The passwords do not match.' }, 422);
    }
    let user;
    try {
      user = await web.rpc.send(IdentitySubjects.userRegister, {
        username: userName.slice(0, 40), email: email.slice(0, 255), password, clientAddress: clientAddress(ctx.req),
      });
    } catch (err) {
      const { error, status } = formRejection(err);
      return signUpForm(ctx, web, { userName, email, error }, status);
    }
    await web.signIn(ctx.req, ctx.reply, user.id);
    await ctx.flash('success', `Welcome, ${user.login}: your account has been created.`);
    return redirect('/');
  }, open);

  web.post('/user/logout', async (ctx) => {
    await web.signOut(ctx.req, ctx.reply);
    return redirect('/');
  }, { ...open, duringPasswordChange: true });

  // A user an administrator created (or reset) with "must change password" lands here from every page.
  const changing = { duringPasswordChange: true };
  web.get(CHANGE_PASSWORD_PATH, async (ctx) => {
    requireSignIn(ctx);
    if (!ctx.mustChangePassword) return redirect('/');
    return changePasswordForm(ctx);
  }, changing);

  web.post(CHANGE_PASSWORD_PATH, async (ctx) => {
    const actor = requireSignIn(ctx);
    if (!ctx.mustChangePassword) return redirect('/');
    const password = ctx.form.password ?? '';
    if (password !== (ctx.form.retype ?? '')) return changePasswordForm(ctx, 'The passwords do not match.', 422);
    if (password.length < MIN_PASSWORD_LENGTH) {
      return changePasswordForm(ctx, `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`, 422);
    }
    try {
      await web.rpc.send(IdentitySubjects.userPasswordChange, { actor, password });
    } catch (err) {
      if (!(err instanceof DomainError) || (err.code !== ErrorCode.INVALID_ARGUMENT && err.code !== ErrorCode.UNPROCESSABLE)) throw err;
      return changePasswordForm(ctx, err.message, 422);
    }
    await ctx.flash('success', 'Your password has been changed.');
    return redirect('/');
  }, changing);
}

async function changePasswordForm(ctx: PageContext, error?: string, status = 200): Promise<PageResult> {
  return page('auth/change-password', 'Change your password', { error, minLength: MIN_PASSWORD_LENGTH, csrf: await ctx.csrfToken() }, status);
}

async function signUpForm(
  ctx: PageContext,
  web: WebKit,
  form: { userName: string; email: string; error?: string },
  status = 200,
): Promise<PageResult> {
  const closed = web.settings.disableRegistration;
  return page('auth/sign-up', 'Register', {
    ...form, closed, minLength: MIN_PASSWORD_LENGTH, csrf: await ctx.csrfToken(),
  }, status);
}

async function signInForm(
  ctx: PageContext,
  form: { login: string; redirectTo: string; error?: string },
  status = 200,
): Promise<PageResult> {
  return page('auth/login', 'Sign in', { ...form, csrf: await ctx.csrfToken() }, status);
}

async function codeForm(ctx: PageContext, method: 'totp' | 'recovery', error?: string, status = 200): Promise<PageResult> {
  const title = method === 'totp' ? 'Two-factor authentication' : 'Use your recovery code';
  return page('auth/two-factor', title, { method, error, csrf: await ctx.csrfToken() }, status);
}

function isUnauthenticated(err: unknown): err is DomainError {
  return err instanceof DomainError && err.code === ErrorCode.UNAUTHENTICATED;
}

function clientAddress(req: FastifyRequest): string | undefined {
  return req.ip || undefined;
}
