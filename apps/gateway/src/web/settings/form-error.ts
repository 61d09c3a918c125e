import { DomainError, httpStatusForErrorCode } from '@cairn/contracts';

/** 400/409/422 refusals show on the form; anything else goes to the error page, unless a 404 is about the input. */
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
