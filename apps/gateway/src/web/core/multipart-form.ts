import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { DomainError } from '@cairn/contracts';
import { CSRF_FIELD, csrfMatches } from './csrf.js';
import type { PageContext } from './web-kit.js';

/** One file of a multipart form, as it arrives: consume `stream` (or resume it to skip the file). */
export interface FormFile {
  field: string;
  /** The file name the browser sent (never empty: an empty file input is skipped). */
  name: string;
  stream: Readable;
}

export interface MultipartLimits {
  fileBytes: number;
  files: number;
}

/** Text fields: enough for a long release note; the fields' count is bounded too. */
const FIELD_MAX_BYTES = 1024 * 1024;
const FIELDS_MAX = 64;

const csrfRefused = () => DomainError.forbidden('invalid or missing CSRF token: reload the page and try again');

/** The CSRF field (sent first) is checked before any file or field is handed on: a forged form reaches neither. */
export function readMultipartForm(
  ctx: PageContext<unknown, unknown>,
  limits: MultipartLimits,
  onFile: (file: FormFile, fields: Readonly<Record<string, string>>) => Promise<void>,
): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: ctx.req.headers,
        limits: { fileSize: limits.fileBytes, files: limits.files, fields: FIELDS_MAX, fieldSize: FIELD_MAX_BYTES },
      });
    } catch (err) {
      reject(DomainError.invalid(`invalid multipart body: ${(err as Error).message}`));
      return;
    }
    const fields: Record<string, string> = {};
    let failure: unknown = null;
    let checked = false;
    const checkCsrf = async () => {
      if (checked) return;
      if (!csrfMatches((await ctx.session()).csrf, fields[CSRF_FIELD])) throw csrfRefused();
      checked = true;
    };
    // Files are handled one after another, in the order they arrive.
    let chain: Promise<void> = Promise.resolve();
    parser.on('field', (name, value) => {
      if (!(name in fields)) fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      if (!info.filename) {
        stream.resume();
        return;
      }
      chain = chain.then(async () => {
        if (failure) return void stream.resume();
        try {
          await checkCsrf();
          await onFile({ field, name: info.filename ?? '', stream }, fields);
        } catch (err) {
          failure ??= err;
          stream.resume();
        }
      });
    });
    parser.on('error', (err: Error) => {
      failure ??= DomainError.invalid(`invalid multipart body: ${err.message}`);
      ctx.req.raw.unpipe(parser);
      ctx.req.raw.resume();
      void chain.then(() => reject(failure));
    });
    parser.on('close', () => {
      void chain
        .then(async () => {
          if (failure) throw failure;
          await checkCsrf();
          resolve(fields);
        })
        .catch(reject);
    });
    ctx.req.raw.pipe(parser);
  });
}
