import type { OutgoingRequest } from './http-sender.js';
import { signatureHeaders } from './signature.js';

export interface DeliveryRequestInput {
  guid: string;
  hookId: number;
  /** Hook type (matrix is sent with PUT to `<url>/<txnId>`). */
  type: string;
  url: string;
  contentType: string;
  payload: string;
  event: string;
  eventType: string;
  secret: string;
  authorization: string;
  targetType: string;
  targetId: number;
  userAgent: string;
}

/** The guid is the delivery's, so a retry or a redelivery carries the same one. */
export function buildDeliveryRequest(input: DeliveryRequestInput): OutgoingRequest {
  const form = input.contentType === 'form' && input.type !== 'matrix';
  const body = Buffer.from(form ? new URLSearchParams({ payload: input.payload }).toString() : input.payload, 'utf8');
  const headers: Record<string, string> = {
    'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json',
    'User-Agent': input.userAgent,
    'X-Gitea-Delivery': input.guid,
    'X-Gitea-Event': input.event,
    'X-Gitea-Event-Type': input.eventType,
    'X-Gitea-Hook-Installation-Target-Type': input.targetType,
    'X-Gogs-Delivery': input.guid,
    'X-Gogs-Event': input.event,
    'X-Gogs-Event-Type': input.eventType,
    'X-GitHub-Delivery': input.guid,
    'X-GitHub-Event': input.event,
    'X-GitHub-Event-Type': input.eventType,
    'X-GitHub-Hook-ID': String(input.hookId),
    'X-GitHub-Hook-Installation-Target-Type': input.targetType,
    'X-GitHub-Hook-Installation-Target-ID': String(input.targetId),
    ...signatureHeaders(input.secret, body),
  };
  if (input.authorization) headers.Authorization = input.authorization;
  if (input.type === 'matrix') {
    // The transaction id makes Matrix drop a repeated attempt of the same delivery.
    const base = input.url.replace(/\/+$/, '');
    return { url: `${base}/${input.guid.replace(/-/g, '')}`, method: 'PUT', headers, body };
  }
  return { url: input.url, method: 'POST', headers, body };
}
