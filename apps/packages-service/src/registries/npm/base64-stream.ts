import { DomainError } from '@cairn/contracts';

const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/** Strict base64 in pieces: Node's decoder skips invalid characters, which would store a different tarball. */
export class Base64Decoder {
  private rest = '';
  private padding = 0;

  write(text: string): Buffer {
    if (!text) return Buffer.alloc(0);
    if (NOT_BASE64.test(text)) throw invalidAttachment('it contains a character that is not base64');
    if (this.padding > 0 && /[^=]/.test(text)) throw invalidAttachment('data follows the base64 padding');
    const firstPad = text.indexOf('=');
    if (firstPad >= 0) {
      if (/[^=]/.test(text.slice(firstPad))) throw invalidAttachment('data follows the base64 padding');
      this.padding += text.length - firstPad;
      if (this.padding > 2) throw invalidAttachment('it has more than two padding characters');
    }
    const all = this.rest + text;
    const whole = all.length - (all.length % 4);
    this.rest = all.slice(whole);
    return whole ? Buffer.from(all.slice(0, whole), 'base64') : Buffer.alloc(0);
  }

  end(): void {
    if (this.rest) throw invalidAttachment('its base64 length is not a multiple of 4');
  }
}

export function invalidAttachment(why: string): DomainError {
  return DomainError.invalid(`package attachment is invalid: ${why}`);
}
