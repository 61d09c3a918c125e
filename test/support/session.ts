/**
 * Small helpers over `fetch` for end-to-end tests: accounts, tokens and JSON requests against a running suite.
 * Everything goes over HTTP, like any client would.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { basicAuth, type Account, type TestSuite } from './suite.js';
import { totpCode, totpStep } from './totp.js';

export type { Account } from './suite.js';

type SuiteLike = Pick<TestSuite, 'api'>;

export interface RequestOptions {
  /** Access token: sent as `Authorization: token <t>`. */
  token?: string;
  /** Basic credentials: a ready `Basic …` header value, or an account. */
  basic?: string | Pick<Account, 'basic'>;
  /** JSON-encoded unless it is a string, a Buffer or a Uint8Array (then sent as is). */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, otherwise the text (empty string for no body). */
  body: T;
  text: string;
}

export interface HttpClient {
  get<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  post<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  put<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  patch<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  delete<T = any>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
}

/** An HTTP client for the suite's API: paths are relative to `/api/v1` unless absolute URLs. */
export function http(suite: SuiteLike): HttpClient {
  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> => {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.token) headers.authorization = `token ${options.token}`;
    if (options.basic) headers.authorization = typeof options.basic === 'string' ? options.basic : options.basic.basic;
    let body: string | Uint8Array | undefined;
    if (options.body !== undefined) {
      if (typeof options.body === 'string' || options.body instanceof Uint8Array) {
        body = options.body;
      } else {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const res = await fetch(suite.api(path), { method, headers, body: body as RequestInit['body'] });
    const text = await res.text();
    const isJson = /\bjson\b/i.test(res.headers.get('content-type') ?? '') && text.length > 0;
    let parsed: unknown = text;
    if (isJson) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  return {
    request,
    get: (p, o) => request('GET', p, o),
    post: (p, o) => request('POST', p, o),
    put: (p, o) => request('PUT', p, o),
    patch: (p, o) => request('PATCH', p, o),
    delete: (p, o) => request('DELETE', p, o),
  };
}

/** A unique, valid user name with a readable stem. */
/**
 * The same string with its last character changed — always to a different one. (Replacing it with a fixed character
 * gives back the original whenever the string already ends with that character: a test that fails 1 run in 62.)
 */
export function withLastCharChanged(s: string): string {
  return s.slice(0, -1) + (s.endsWith('A') ? 'B' : 'A');
}

export function uniqueName(stem = 'user'): string {
  return `${stem}-${randomBytes(3).toString('hex')}`;
}

/** Creates a user through `POST /admin/users` (no forced password change) and returns its credentials. */
export async function createUser(
  suite: SuiteLike,
  adminBasic: string | Pick<Account, 'basic'>,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<Account> {
  const password = `Pw-${randomBytes(12).toString('hex')}`;
  const res = await http(suite).post('/admin/users', {
    basic: adminBasic,
    body: { username: name, email: `${name}@example.com`, password, must_change_password: false, ...extra },
  });
  if (res.status !== 201) throw new Error(`POST /admin/users ${name} answered ${res.status}: ${res.text}`);
  return { username: name, password, basic: basicAuth(name, password) };
}

/** Creates an access token through `POST /users/{username}/tokens` (Basic auth) and returns the token itself. */
export async function createToken(
  suite: SuiteLike,
  user: Pick<Account, 'username' | 'basic'>,
  scopes: string[] = ['all'],
  name = uniqueName('token'),
): Promise<string> {
  const res = await http(suite).post<{ sha1: string }>(`/users/${encodeURIComponent(user.username)}/tokens`, {
    basic: user.basic,
    body: { name, scopes },
  });
  if (res.status !== 201) throw new Error(`POST /users/${user.username}/tokens answered ${res.status}: ${res.text}`);
  return res.body.sha1;
}

/**
 * Enrols an account in two-factor through the API (`POST /user/2fa`, then `/user/2fa/confirm` with a code of the
 * current step, which is then spent): the secret, the recovery code and that step.
 */
export async function enrolTwoFactor(
  suite: SuiteLike,
  account: Pick<Account, 'basic'>,
): Promise<{ secret: string; recovery: string; step: number }> {
  const started = await http(suite).post<{ secret: string }>('/user/2fa', { basic: account });
  if (started.status !== 201) throw new Error(`POST /user/2fa answered ${started.status}: ${started.text}`);
  const step = totpStep();
  const confirmed = await http(suite).post<{ scratch_token: string }>('/user/2fa/confirm', {
    basic: account,
    body: { passcode: totpCode(started.body.secret, step) },
  });
  if (confirmed.status !== 200) throw new Error(`POST /user/2fa/confirm answered ${confirmed.status}: ${confirmed.text}`);
  return { secret: started.body.secret, recovery: confirmed.body.scratch_token, step };
}

/**
 * Signs in through the web forms over plain HTTP (no browser) — the password, then the recovery code when given — and
 * returns the session cookie: web pages know only sessions, not API credentials.
 */
export async function webSessionCookie(
  suite: Pick<TestSuite, 'baseUrl'>,
  account: Account,
  recoveryCode?: string,
): Promise<string> {
  let cookie = '';
  const step = async (path: string, fields: Record<string, string>): Promise<Response> => {
    const form = await fetch(`${suite.baseUrl}${path}`, { headers: { cookie }, redirect: 'manual' });
    cookie = /cairn_session=[^;]+/.exec(form.headers.get('set-cookie') ?? '')?.[0] ?? cookie;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
    expect(csrf, `${path} carries a CSRF token`).toBeTruthy();
    const res = await fetch(`${suite.baseUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf!, ...fields }).toString(),
    });
    expect(res.status, `${path} answers with a redirect`).toBe(303);
    cookie = /cairn_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0] ?? cookie;
    return res;
  };
  const afterPassword = await step('/user/login', { user_name: account.username, password: account.password });
  if (recoveryCode !== undefined) {
    expect(afterPassword.headers.get('location')).toBe('/user/two_factor');
    await step('/user/two_factor/scratch', { passcode: recoveryCode });
  }
  return cookie;
}
