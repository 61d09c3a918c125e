import type { SendResult } from './http-sender.js';

export interface AttemptVerdict {
  delivered: boolean;
  transient: boolean;
  /** GitHub-style status text: `OK`, `Invalid HTTP Response: 503`, or the error. */
  status: string;
}

/** 2xx delivers; connection errors, timeouts, 408, 429 and 5xx are transient; blocked targets, 3xx, other 4xx are final. */
export function judge(result: SendResult): AttemptVerdict {
  if (result.error) {
    const transient = result.errorKind === 'timeout' || result.errorKind === 'network';
    return { delivered: false, transient, status: result.error };
  }
  const code = result.status ?? 0;
  if (code >= 200 && code < 300) return { delivered: true, transient: false, status: 'OK' };
  if (code >= 300 && code < 400) {
    return { delivered: false, transient: false, status: `Invalid HTTP Response: ${code} (redirects are not followed)` };
  }
  const transient = code === 408 || code === 429 || code >= 500;
  return { delivered: false, transient, status: `Invalid HTTP Response: ${code}` };
}
