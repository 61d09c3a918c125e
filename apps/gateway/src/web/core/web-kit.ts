import type { Eta } from 'eta';
import {
  DomainError, ErrorCode, IdentitySubjects, httpStatusForErrorCode, twoFactorDeniesRepoAccess,
  type ActorDto, type RepoUnit, type UserDto,
} from '@cairn/contracts';
import type { CommonSettings, JsonLogger, LazyRedis, RpcClient } from '@cairn/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resolveRepoAccess } from '../../access/repo-access.guard.js';
import { readCredentials } from '../../auth/credentials.js';
import { resolveCredentials } from '../../auth/resolve-credentials.js';
import { missingScopesMessage } from '../../auth/scopes.js';
import type { GatewaySettings } from '../../config/gateway-settings.js';
import type { SessionUploadRouteConfig } from '../../http/json-body.js';
import { setRetryAfter } from '../../http/retry-after.js';
import { readCookie, sessionCookie } from './cookies.js';
import { CSRF_FIELD, CSRF_HEADER, UNSAFE_METHODS, csrfMatches } from './csrf.js';
import { anonymousMustSignIn } from './sign-in-policy.js';
import { SESSION_COOKIE, SESSION_TTL_SECONDS, type Flash, type SessionStore, type WebSession } from './session-store.js';

/** 303 after a form. */
export type PageResult =
  | { kind: 'page'; template: string; title: string; data: object; status: number }
  | { kind: 'redirect'; location: string }
  | { kind: 'fragment'; template: string; data: object; status: number }
  | { kind: 'answered' };

export function page(template: string, title: string, data: object = {}, status = 200): PageResult {
  return { kind: 'page', template, title, data, status };
}
export function redirect(location: string): PageResult {
  return { kind: 'redirect', location };
}
export function fragment(template: string, data: object = {}, status = 200): PageResult {
  return { kind: 'fragment', template, data, status };
}
/** E.g. a file's raw bytes. */
export function answered(): PageResult {
  return { kind: 'answered' };
}

/** The visitor goes to sign-in and comes back afterwards. */
export class SignInRequired extends Error {}

export interface PageContext<P = Record<string, string>, Q = Record<string, string | undefined>> {
  req: FastifyRequest;
  reply: FastifyReply;
  params: P;
  query: Q;
  /** Unsafe methods only; a repeated field gives its first value. */
  form: Record<string, string>;
  /** `[]` when absent. */
  formAll: (name: string) => string[];
  /** As the API would see them (`via: 'session'`, scopes `all`), or null. */
  actor: ActorDto | null;
  user: UserDto | null;
  /** An admin created or reset them. */
  mustChangePassword: boolean;
  /** Created (and its cookie set) on first use. */
  session: () => Promise<WebSession>;
  /** Creates the session when needed. */
  csrfToken: () => Promise<string>;
  flash: (kind: Flash['kind'], text: string) => Promise<void>;
}

export type PageHandler<P, Q> = (ctx: PageContext<P, Q>) => Promise<PageResult>;

export interface PageOptions {
  /** Even under `REQUIRE_SIGNIN_VIEW = true` (the sign-in pages). */
  public?: boolean;
  /** That page and sign-out; others redirect there. */
  duringPasswordChange?: boolean;
  /** Body left unread for `readMultipartForm`, which checks the CSRF field before acting on any part. */
  multipart?: boolean;
  /**
   * Without a session, the request's API credentials sign it in with these scopes, as Gitea lets scripts fetch release
   * attachments.
   */
  apiCredentials?: { scopes: readonly string[] };
}

/** The API's refusal names it too. */
export const CHANGE_PASSWORD_PATH = '/user/change_password';

export function requireSignIn(ctx: { actor: ActorDto | null }): ActorDto {
  if (!ctx.actor) throw new SignInRequired();
  return ctx.actor;
}

/** Anything else (other sites, `//x`) is dropped. */
export function safeRedirectTarget(target: unknown): string | undefined {
  if (typeof target !== 'string' || target.length > 2048) return undefined;
  return /^\/(?![/\\])[^\s]*$/.test(target) ? target : undefined;
}

export interface WebKitDeps {
  rpc: RpcClient;
  settings: GatewaySettings;
  common: CommonSettings;
  store: SessionStore;
  redis: LazyRedis;
  views: Eta;
  logger: JsonLogger;
}

/** No inline script or style. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  // The file view frames a PDF's raw answer (sandboxed, same origin) for the browser's viewer.
  "frame-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Sign in required',
  403: 'Forbidden',
  404: 'Page not found',
  413: 'Too large',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

/** Its own form-body parser leaves the API's JSON-only parsing untouched. */
export class WebKit {
  constructor(
    private readonly scope: FastifyInstance,
    readonly deps: WebKitDeps,
  ) {}

  get rpc(): RpcClient {
    return this.deps.rpc;
  }

  get settings(): GatewaySettings {
    return this.deps.settings;
  }

  get<P = Record<string, string>, Q = Record<string, string | undefined>>(
    url: string,
    handler: PageHandler<P, Q>,
    options: PageOptions = {},
  ): void {
    this.route('GET', url, handler as PageHandler<unknown, unknown>, options);
  }

  post<P = Record<string, string>, Q = Record<string, string | undefined>>(
    url: string,
    handler: PageHandler<P, Q>,
    options: PageOptions = {},
  ): void {
    this.route('POST', url, handler as PageHandler<unknown, unknown>, options);
  }

  private route(method: 'GET' | 'POST', url: string, handler: PageHandler<unknown, unknown>, options: PageOptions): void {
    // A page taking files gets the attachment size limit for signed-in browsers (see json-body.ts).
    const config: SessionUploadRouteConfig = options.multipart ? { sessionUploadCookie: SESSION_COOKIE } : {};
    this.scope.route({ method, url, config, handler: (req, reply) => this.serve(req, reply, handler, options) });
  }

  /** Registered last; machine-facing protocols keep their own not-found answers. */
  registerNotFoundPage(): void {
    this.scope.get('/*', (req, reply) => {
      if (/^\/(api|v2)(\/|$)/.test(req.url)) return reply.callNotFound();
      return this.serve(req, reply, async () => {
        throw DomainError.notFound('The page you are looking for does not exist, or you are not allowed to see it.');
      }, {});
    });
  }

  /**
   * By the API's rules (hidden → 404, also under enforced 2FA without it); with `units`, `access` is the page's unit
   * level.
   */
  async repoAccess(
    ctx: Pick<PageContext, 'actor'>, owner: string, repo: string, units?: RepoUnit | readonly RepoUnit[],
  ): ReturnType<typeof resolveRepoAccess> {
    const context = await resolveRepoAccess(this.rpc, this.settings, ctx.actor, owner, repo, units);
    // Gitea's web answers 404 here; the API, 403.
    if (units !== undefined && context.access === 'none') throw DomainError.notFound('not found');
    return context;
  }

  /** Token scopes checked; null when none are presented. */
  private async apiActor(req: FastifyRequest, scopes: readonly string[]): Promise<ActorDto | null> {
    const presented = readCredentials(req);
    if (presented === 'malformed') throw new DomainError(ErrorCode.UNAUTHENTICATED, 'malformed Authorization header');
    if (!presented.request) return null;
    const { actor } = await resolveCredentials(this.rpc, this.settings, presented.request);
    const missing = missingScopesMessage(actor, scopes);
    if (missing) throw DomainError.forbidden(missing);
    return actor;
  }

  saveSession(session: WebSession): Promise<void> {
    return this.deps.store.save(session);
  }

  async renderError(req: FastifyRequest, reply: FastifyReply, err: unknown): Promise<void> {
    const ctx = await this.context(req, reply).catch(() => null);
    await this.fail(req, reply, ctx, err);
  }

  private async serve(
    req: FastifyRequest,
    reply: FastifyReply,
    handler: PageHandler<unknown, unknown>,
    options: PageOptions,
  ): Promise<void> {
    reply
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-store');
    let ctx: PageContext | null = null;
    try {
      ctx = await this.context(req, reply);
      if (!ctx.actor && options.apiCredentials) ctx.actor = await this.apiActor(req, options.apiCredentials.scopes);
      if (!ctx.actor && anonymousMustSignIn(this.settings.requireSigninView, req.url, options.public === true)) {
        throw new SignInRequired();
      }
      if (ctx.mustChangePassword && !options.duringPasswordChange) {
        await this.send(req, reply, ctx, redirect(CHANGE_PASSWORD_PATH));
        return;
      }
      if (UNSAFE_METHODS.has(req.method) && !(options.multipart && isMultipart(req))) {
        const session = await this.loadedSession(req);
        const presented = ctx.form[CSRF_FIELD] ?? req.headers[CSRF_HEADER];
        if (!session || !csrfMatches(session.csrf, presented)) {
          throw DomainError.forbidden('invalid or missing CSRF token: reload the page and try again');
        }
      }
      const result = await handler(ctx);
      await this.send(req, reply, ctx, result);
    } catch (err) {
      await this.fail(req, reply, ctx, err);
    }
  }

  private async send(req: FastifyRequest, reply: FastifyReply, ctx: PageContext, result: PageResult): Promise<void> {
    if (result.kind === 'answered') return;
    if (result.kind === 'redirect') {
      await reply.status(303).header('location', result.location).send();
      return;
    }
    if (result.kind === 'fragment') {
      const html = this.deps.views.render(result.template, { ...result.data, csrf: await this.csrfIfSession(req) });
      await reply.status(result.status).type('text/html; charset=utf-8').send(html);
      return;
    }
    const html = await this.inLayout(req, ctx, result.template, result.title, result.data);
    await reply.status(result.status).type('text/html; charset=utf-8').send(html);
  }

  private async inLayout(req: FastifyRequest, ctx: PageContext | null, template: string, title: string, data: object): Promise<string> {
    const session = await this.loadedSession(req);
    const flash = session?.flash ?? [];
    if (session?.flash?.length) {
      delete session.flash;
      await this.deps.store.save(session);
    }
    const actor = ctx?.actor ?? null;
    const layout = {
      title,
      actor,
      user: ctx?.user ?? null,
      // Sign-out is a form: every signed-in page needs the token.
      csrf: actor && ctx ? await ctx.csrfToken() : (session?.csrf ?? ''),
      flash,
      twoFactorAlert: twoFactorDeniesRepoAccess(this.settings.twoFactorAuth, actor),
      appName: 'Cairn',
      registration: !this.settings.disableRegistration,
      path: req.url,
    };
    const body = this.deps.views.render(template, { ...data, layout });
    return this.deps.views.render('core/layout', { layout, body });
  }

  private async fail(req: FastifyRequest, reply: FastifyReply, ctx: PageContext | null, err: unknown): Promise<void> {
    if (err instanceof SignInRequired) {
      const back = req.method === 'GET' ? `?redirect_to=${encodeURIComponent(req.url)}` : '';
      await reply.status(303).header('location', `/user/login${back}`).send();
      return;
    }
    const status = err instanceof DomainError ? httpStatusForErrorCode(err.code) : 500;
    // A page never shows a stack trace; the log has the rest.
    const message = err instanceof DomainError && status < 500 ? err.message : undefined;
    if (status >= 500) this.deps.logger.error(`web ${req.method} ${req.url}: ${err instanceof Error ? err.stack : String(err)}`);
    // Bad path parameters are "no such page" to a browser.
    const shown = status === 400 && req.method === 'GET' ? 404 : status;
    setRetryAfter(reply, err);
    const title = STATUS_TITLES[shown] ?? `Error ${shown}`;
    try {
      const html = await this.inLayout(req, ctx, 'core/error', title, { status: shown, title, message });
      await reply.status(shown).type('text/html; charset=utf-8').send(html);
    } catch (renderErr) {
      this.deps.logger.error(`web error page failed: ${renderErr instanceof Error ? renderErr.message : String(renderErr)}`);
      await reply.status(shown).type('text/plain; charset=utf-8').send(title);
    }
  }

  private async loadedSession(req: FastifyRequest): Promise<WebSession | null> {
    const state = sessionState(req);
    if (state.loaded === undefined) {
      state.loaded = await this.deps.store.load(readCookie(req.headers.cookie, SESSION_COOKIE));
    }
    return state.loaded;
  }

  private async csrfIfSession(req: FastifyRequest): Promise<string> {
    return (await this.loadedSession(req))?.csrf ?? '';
  }

  private setCookie(reply: FastifyReply, session: WebSession | null): void {
    const secure = this.deps.common.rootUrl.startsWith('https:');
    reply.removeHeader('set-cookie'); // one cookie per answer: a renewed id replaces the one set earlier
    reply.header(
      'set-cookie',
      sessionCookie(SESSION_COOKIE, session?.id ?? '', { maxAgeSeconds: session ? SESSION_TTL_SECONDS : 0, secure }),
    );
  }

  /** New id and CSRF secret: no session fixation. */
  async signIn(req: FastifyRequest, reply: FastifyReply, userId: number): Promise<WebSession> {
    const old = await this.loadedSession(req);
    const renewed = old
      ? await this.deps.store.renew({ ...old, userId, pendingUserId: undefined })
      : this.deps.store.create({ userId });
    if (!old) await this.deps.store.save(renewed);
    sessionState(req).loaded = renewed;
    this.setCookie(reply, renewed);
    return renewed;
  }

  async signOut(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const session = await this.loadedSession(req);
    if (session) await this.deps.store.destroy(session.id);
    sessionState(req).loaded = null;
    this.setCookie(reply, null);
  }

  private async context(req: FastifyRequest, reply: FastifyReply): Promise<PageContext> {
    const existing = await this.loadedSession(req);
    let current = existing;
    if (existing) this.setCookie(reply, existing); // sliding expiry, like the Redis record's
    const session = async (): Promise<WebSession> => {
      if (!current) {
        current = this.deps.store.create();
        await this.deps.store.save(current);
        sessionState(req).loaded = current;
        this.setCookie(reply, current);
      }
      return current;
    };
    const who = existing?.userId !== undefined ? await this.resolveSessionUser(existing) : null;
    return {
      req,
      reply,
      params: (req.params ?? {}) as Record<string, string>,
      query: (req.query ?? {}) as Record<string, string | undefined>,
      form: formFields(req.body),
      formAll: (name) => formValues(req.body, name),
      actor: who?.actor ?? null,
      user: who?.user ?? null,
      mustChangePassword: who?.mustChangePassword ?? false,
      session,
      csrfToken: async () => (await session()).csrf,
      flash: async (kind, text) => {
        const s = await session();
        s.flash = [...(s.flash ?? []), { kind, text }].slice(-5);
        await this.deps.store.save(s);
      },
    };
  }

  /** A disabled or deleted user is signed out. */
  private async resolveSessionUser(session: WebSession): Promise<{ actor: ActorDto; user: UserDto; mustChangePassword: boolean } | null> {
    try {
      const reply = await this.rpc.send(IdentitySubjects.authSession, { userId: session.userId! });
      return { actor: reply.actor, user: reply.user, mustChangePassword: reply.mustChangePassword === true };
    } catch (err) {
      if (err instanceof DomainError && (err.code === ErrorCode.UNAUTHENTICATED || err.code === ErrorCode.NOT_FOUND)) {
        await this.deps.store.destroy(session.id);
        return null;
      }
      throw err;
    }
  }
}

const SESSION_STATE = Symbol('cairn.webSession');
interface SessionState {
  loaded?: WebSession | null;
}
function sessionState(req: FastifyRequest): SessionState {
  const holder = req as unknown as { [SESSION_STATE]?: SessionState };
  return (holder[SESSION_STATE] ??= {});
}

export function isMultipart(req: FastifyRequest): boolean {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase() === 'multipart/form-data';
}

function formValues(body: unknown, name: string): string[] {
  if (!body || typeof body !== 'object') return [];
  const value = (body as Record<string, unknown>)[name];
  const all = Array.isArray(value) ? value : [value];
  return all.filter((v): v is string => typeof v === 'string');
}

function formFields(body: unknown): Record<string, string> {
  if (!body || typeof body !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (typeof value === 'string') out[key] = value;
    else if (Array.isArray(value) && typeof value[0] === 'string') out[key] = value[0];
  }
  return out;
}
