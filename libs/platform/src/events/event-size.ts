import { EVENT_MAX_BYTES, EVENT_TEXT_CUT_MARK, EVENT_TEXT_MAX_BYTES, type DomainEvent } from '@cairn/contracts';

/** Issue 9, item 1: one oversized row once blocked a whole outbox; texts are cut when the event is made, so it cannot exist. */

/** The change that made it is rolled back. */
export class EventTooLargeError extends Error {
  constructor(
    readonly type: string,
    readonly bytes: number,
  ) {
    super(`event ${type} is ${bytes} bytes, over the ${EVENT_MAX_BYTES}-byte limit of an event`);
    this.name = 'EventTooLargeError';
  }
}

/** What goes over NATS. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** Escapes counted, as `JSON.stringify` writes them. */
function encodedBytes(cp: number): number {
  if (cp === 0x22 || cp === 0x5c) return 2; // \" \\
  if (cp < 0x20) return cp === 0x08 || cp === 0x09 || cp === 0x0a || cp === 0x0c || cp === 0x0d ? 2 : 6;
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp >= 0xd800 && cp <= 0xdfff) return 6; // a lone surrogate is written as \udxxx
  return cp < 0x10000 ? 3 : 4;
}

const MARK_BYTES = jsonBytes(EVENT_TEXT_CUT_MARK) - 2;

/** Cut between code points, followed by {@link EVENT_TEXT_CUT_MARK}. */
export function cutText(text: string, maxBytes = EVENT_TEXT_MAX_BYTES): string {
  // Fast path: even at 6 bytes per code unit it fits.
  if (text.length * 6 <= maxBytes) return text;
  let used = 0;
  let end = 0;
  let cutAt = -1;
  const budget = maxBytes - MARK_BYTES;
  for (const ch of text) {
    used += encodedBytes(ch.codePointAt(0)!);
    if (cutAt < 0 && used > budget) cutAt = end;
    if (used > maxBytes) return text.slice(0, cutAt) + EVENT_TEXT_CUT_MARK;
    end += ch.length;
  }
  return text;
}

export function boundEventTexts<T>(data: T): T {
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return cutText(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = walk(v);
      return out;
    }
    return value;
  };
  return walk(data) as T;
}

export function assertEventFits(event: DomainEvent): void {
  const bytes = jsonBytes(event);
  if (bytes > EVENT_MAX_BYTES) throw new EventTooLargeError(event.type, bytes);
}
