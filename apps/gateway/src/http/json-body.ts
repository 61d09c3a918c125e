import { HttpException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import { DomainError } from '@cairn/contracts';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { readCredentials } from '../auth/credentials.js';
import type { GatewaySettings } from '../config/gateway-settings.js';

const JSON_TYPE = /^application\/(.+\+)?json/i;

/** Refused before `JSON.parse` recurses (no API body nests more than a few levels). */
const MAX_JSON_DEPTH = 64;

/** File-content routes (base64) may exceed `[server] MAX_BODY_SIZE`, up to `[repository.upload] FILE_MAX_SIZE`. */
const FILE_CONTENT_ROUTES = /^\/api\/v1\/repos\/:owner\/:repo\/(contents|contents\/\*|file-contents)$/;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Multipart is what a cross-site form can send: only with the request's own credentials, never the session cookie. */
export const ATTACHMENT_UPLOAD_ROUTE = '/api/v1/repos/:owner/:repo/releases/:id/assets';
const FILE_BODY_TYPES = ['multipart/form-data', 'application/octet-stream'];

export interface BodyLimits {
  /** `[server] MAX_BODY_SIZE`; also every anonymous request. */
  json: number;
  fileContent: number;
  /** Plus room for the multipart framing. */
  attachment: number;
}

export function bodyLimits(
  settings: Pick<GatewaySettings, 'maxBodyBytes' | 'uploadFileMaxMb'>,
  attachmentMaxSizeMb: number,
): BodyLimits {
  // Base64 is 4/3 of the file, inside an object that may hold a normal body's worth more.
  const file = Math.ceil((settings.uploadFileMaxMb * 1024 * 1024 * 4) / 3) + settings.maxBodyBytes;
  return {
    json: settings.maxBodyBytes,
    fileContent: Math.max(file, settings.maxBodyBytes),
    attachment: attachmentMaxSizeMb * 1024 * 1024 + settings.maxBodyBytes,
  };
}

export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

function bodyTooLarge(limit: number, anonymous: boolean): PayloadTooLargeException {
  return new PayloadTooLargeException(
    `request body too large: the limit is ${limit} bytes${anonymous ? ' for requests without credentials' : ' for this route'}`,
  );
}

export function describeBodyTooLarge(req: FastifyRequest | undefined): PayloadTooLargeException {
  return bodyTooLarge(req?.routeOptions?.bodyLimit ?? 0, false);
}

/** Session-cookie file routes are CSRF-checked before any file is read, and SameSite. */
export interface SessionUploadRouteConfig {
  sessionUploadCookie?: string;
}

function sessionUpload(req: FastifyRequest): boolean {
  const name = (req.routeOptions.config as SessionUploadRouteConfig | undefined)?.sessionUploadCookie;
  if (!name) return false;
  return (req.headers.cookie ?? '').split(';').some((part) => part.trim().startsWith(`${name}=`));
}

function mayUseRouteLimit(req: FastifyRequest): boolean {
  return carriesCredentials(req) || sessionUpload(req);
}

function edgeLimit(req: FastifyRequest, limits: BodyLimits): number {
  return mayUseRouteLimit(req) ? (req.routeOptions.bodyLimit ?? limits.json) : limits.json;
}

/** Past `limit` bytes it stops reading and lets the connection go. */
function drainThen(payload: NodeJS.ReadableStream & { destroy?: () => void }, limit: number, next: () => void): void {
  let seen = 0;
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    next();
  };
  payload.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limit) {
      payload.removeAllListeners('data');
      payload.pause();
      once();
    }
  });
  payload.on('end', once);
  payload.on('error', once);
}

/** Presence only, as the auth guard reads them (a malformed header counts: the guard answers 401). */
function carriesCredentials(req: FastifyRequest): boolean {
  const presented = readCredentials(req);
  return presented === 'malformed' || presented.request !== null;
}

/** Basic only without `Origin`/`Sec-Fetch-Site`: a browser replays cached Basic credentials cross-site. */
function carriesOwnUploadCredentials(req: FastifyRequest): boolean {
  const presented = readCredentials(req);
  if (presented === 'malformed') return true; // the auth guard answers it with 401
  if (presented.request === null) return false;
  if (presented.method === 'token') return true;
  const site = req.headers['sec-fetch-site'];
  return req.headers.origin === undefined && (site === undefined || site === 'none');
}

// Before parsing or auth: JSON only (415: a cross-site form never reaches the API), size (413), depth (400).
// Register before the routes.
export function registerJsonBodyParser(fastify: FastifyInstance, limits: BodyLimits): void {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (FILE_CONTENT_ROUTES.test(route.url) && methods.some((m) => BODY_METHODS.has(m))) {
      route.bodyLimit = limits.fileContent;
    }
    if (route.url === ATTACHMENT_UPLOAD_ROUTE && methods.includes('POST')) route.bodyLimit = limits.attachment;
    if ((route.config as SessionUploadRouteConfig | undefined)?.sessionUploadCookie) route.bodyLimit = limits.attachment;
  });

  fastify.addHook('onRequest', (req, _reply, done) => {
    const length = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    // No bytes, no body: drop the type so no parser runs.
    if (!chunked && (length === undefined || length.trim() === '0')) {
      delete req.headers['content-type'];
      return done();
    }
    // Refuse a declared oversize before reading it; anonymous callers get the normal limit everywhere.
    const anonymous = !mayUseRouteLimit(req);
    const routeLimit = req.routeOptions.bodyLimit ?? limits.json;
    const limit = anonymous ? limits.json : routeLimit;
    if (length !== undefined && Number(length) > limit) return done(bodyTooLarge(limit, anonymous));
    // Fastify checks only the route's limit on a chunked body: anonymous ones must declare a length.
    if (length === undefined && anonymous && routeLimit > limit) {
      return done(new HttpException('a request without credentials must send Content-Length on this route', 411));
    }
    done();
  });

  // Fastify's JSON parser refuses `__proto__` and `constructor.prototype` keys (prototype poisoning).
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(JSON_TYPE, { parseAs: 'string' }, (req, body: string, done) => {
    if (body.trim() === '') return done(null, undefined);
    if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) {
      return done(DomainError.invalid(`invalid JSON body: nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
    }
    void parseJson(req, body, (err, parsed) => {
      if (err) done(DomainError.invalid(`invalid JSON body: ${err.message}`), undefined);
      else done(null, parsed);
    });
  });
  // Left unread for its controller, only with the request's own credentials.
  fastify.addContentTypeParser(FILE_BODY_TYPES, (req, payload, done) => {
    if (req.routeOptions.url === ATTACHMENT_UPLOAD_ROUTE && req.method === 'POST' && carriesOwnUploadCredentials(req)) {
      return done(null, undefined);
    }
    const uploadRoute = req.routeOptions.url === ATTACHMENT_UPLOAD_ROUTE;
    const refusal = new UnsupportedMediaTypeException(
      uploadRoute
        ? 'a file upload must carry its credentials in the Authorization header (or ?token=): the session cookie alone is not accepted, nor Basic credentials sent from a web page'
        : 'request bodies must be JSON (Content-Type: application/json)',
    );
    // Drain first: a client still sending would see a connection reset instead of the 415.
    drainThen(payload, edgeLimit(req, limits), () => done(refusal, undefined));
  });
  fastify.addContentTypeParser('*', (req, _payload, done) => {
    const type = req.headers['content-type'];
    done(
      new UnsupportedMediaTypeException(
        type
          ? `unsupported Content-Type "${type.slice(0, 100)}": request bodies must be JSON (Content-Type: application/json)`
          : 'a request body needs Content-Type: application/json',
      ),
      undefined,
    );
  });
}
