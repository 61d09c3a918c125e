import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ATTACHMENT_UPLOAD_ROUTE, bodyLimits, jsonDepthExceeds, registerJsonBodyParser } from './json-body.js';

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonDepthExceeds('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ s: '[[[[[[{{{{{' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'quote \\" [[[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds('[]'.repeat(1000), 1)).toBe(false);
  });

  it('stops at the limit on 100,000 nested arrays', () => {
    expect(jsonDepthExceeds('['.repeat(100_000) + ']'.repeat(100_000), 64)).toBe(true);
  });
});

describe('bodyLimits', () => {
  it('gives the file-content routes a base64 file plus a normal body', () => {
    expect(bodyLimits({ maxBodyBytes: 1024 * 1024, uploadFileMaxMb: 3 }, 2)).toEqual({
      json: 1024 * 1024,
      fileContent: 4 * 1024 * 1024 + 1024 * 1024,
      attachment: 2 * 1024 * 1024 + 1024 * 1024,
    });
  });
});

describe('the attachment upload route (registerJsonBodyParser)', () => {
  const limits = { json: 1024, fileContent: 4096, attachment: 64 * 1024 };
  const multipart = 'multipart/form-data; boundary=b';
  const form = '--b\r\nContent-Disposition: form-data; name="attachment"; filename="a.txt"\r\n\r\nhello\r\n--b--\r\n';

  async function app() {
    const fastify = Fastify();
    registerJsonBodyParser(fastify, limits);
    const echo = async (req: FastifyRequest) => {
      // The body reaches the handler unread: it streams it itself.
      let bytes = 0;
      for await (const chunk of req.raw) bytes += (chunk as Buffer).length;
      return { bytes };
    };
    fastify.post(ATTACHMENT_UPLOAD_ROUTE, echo);
    fastify.post('/api/v1/repos/:owner/:repo/releases', echo);
    await fastify.ready();
    return fastify;
  }

  it('streams a multipart or octet-stream body to the handler when the request carries its own credentials', async () => {
    const fastify = await app();
    const url = '/api/v1/repos/o/r/releases/1/assets';
    for (const headers of [
      { authorization: 'token abc', 'content-type': multipart },
      { authorization: 'Basic YTpi', 'content-type': multipart },
      { authorization: 'token abc', 'content-type': 'application/octet-stream' },
    ]) {
      const res = await fastify.inject({ method: 'POST', url, headers, payload: form });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ bytes: form.length });
    }
    const byQuery = await fastify.inject({ method: 'POST', url: `${url}?token=abc`, headers: { 'content-type': multipart }, payload: form });
    expect(byQuery.statusCode).toBe(200);
    await fastify.close();
  });

  it('refuses multipart with the session cookie alone (415: CSRF) and on every other route', async () => {
    const fastify = await app();
    const cookieOnly = await fastify.inject({
      method: 'POST', url: '/api/v1/repos/o/r/releases/1/assets',
      headers: { cookie: 'cairn_session=s', 'content-type': multipart }, payload: form,
    });
    expect(cookieOnly.statusCode).toBe(415);
    expect(cookieOnly.json().message).toMatch(/Authorization header/);
    const elsewhere = await fastify.inject({
      method: 'POST', url: '/api/v1/repos/o/r/releases',
      headers: { authorization: 'token abc', 'content-type': multipart }, payload: form,
    });
    expect(elsewhere.statusCode).toBe(415);
    // Basic credentials a browser replays on a page's cross-site form: refused; a token header from a page is fine.
    for (const marker of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }]) {
      const fromPage = await fastify.inject({
        method: 'POST', url: '/api/v1/repos/o/r/releases/1/assets',
        headers: { authorization: 'Basic YTpi', 'content-type': multipart, ...marker }, payload: form,
      });
      expect(fromPage.statusCode, JSON.stringify(marker)).toBe(415);
      expect(fromPage.json().message).toMatch(/Basic credentials sent from a web page/);
    }
    const tokenFromPage = await fastify.inject({
      method: 'POST', url: '/api/v1/repos/o/r/releases/1/assets',
      headers: { authorization: 'token abc', 'content-type': multipart, origin: 'https://ci.example' }, payload: form,
    });
    expect(tokenFromPage.statusCode).toBe(200);
    await fastify.close();
  });

  it('holds the upload route to the attachment limit, and anonymous requests to the JSON one', async () => {
    const fastify = await app();
    const url = '/api/v1/repos/o/r/releases/1/assets';
    const body = 'x'.repeat(limits.json + 1);
    const withToken = await fastify.inject({ method: 'POST', url, headers: { authorization: 'token abc', 'content-type': 'application/octet-stream' }, payload: body });
    expect(withToken.statusCode).toBe(200);
    const over = 'x'.repeat(limits.attachment + 1);
    const tooLarge = await fastify.inject({ method: 'POST', url, headers: { authorization: 'token abc', 'content-type': 'application/octet-stream' }, payload: over });
    expect(tooLarge.statusCode).toBe(413);
    const anonymous = await fastify.inject({ method: 'POST', url, headers: { 'content-type': 'application/octet-stream' }, payload: body });
    expect(anonymous.statusCode).toBe(413);
    await fastify.close();
  });
});
