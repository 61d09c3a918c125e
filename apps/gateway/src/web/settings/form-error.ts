import { DomainError, httpStatusForErrorCode } from '@cairn/contracts';

/**
 * What a settings form shows when the service refused the input (400/409/422: a bad key, a taken name, a wrong
 * code): the message, with the form again. Anything else (404, 403, 5xx) is not the form's business and is rethrown
 * to the error page — unless the caller knows a 404 is about the input (`notFoundIsInput`).
 */
export function formRejection(err: unknown, options: { notFoundIsInput?: boolean } = {}): { error: string; status: number } {
  if (err instanceof DomainError) {
    const status = httpStatusForErrorCode(err.code);
    if (status === 400 || status === 409 || status === 422 || (status === 404 && options.notFoundIsInput)) {
      const details = err.details?.length ? `: ${err.details.join('; ')}` : '';
      return { error: `${err.message}${details}`, status: 422 };
    }
  }
  throw err;
}
