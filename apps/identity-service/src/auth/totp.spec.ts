import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, otpauthUrl, totp, totpStepOf, verifyTotp } from './totp.js';

// RFC 6238 Appendix B: the seeds are the ASCII digits repeated to the hash's key size.
const SEED_SHA1 = Buffer.from('12345678901234567890');
const SEED_SHA256 = Buffer.from('12345678901234567890123456789012');
const SEED_SHA512 = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234');

const RFC6238: Array<[number, string, string, string]> = [
  // [unix time, SHA1, SHA256, SHA512]
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(RFC6238)('matches the RFC test vectors at T=%i', (t, sha1, sha256, sha512) => {
    expect(totp(SEED_SHA1, t * 1000, { digits: 8, algorithm: 'sha1' })).toBe(sha1);
    expect(totp(SEED_SHA256, t * 1000, { digits: 8, algorithm: 'sha256' })).toBe(sha256);
    expect(totp(SEED_SHA512, t * 1000, { digits: 8, algorithm: 'sha512' })).toBe(sha512);
  });

  it('matches the RFC 4226 HOTP vectors (6 digits)', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expected.forEach((code, counter) => expect(hotp(SEED_SHA1, counter)).toBe(code));
  });

  it('accepts the current step and one step either side, nothing further', () => {
    const now = 1_700_000_000_000;
    const at = (offsetSteps: number) => totp(SEED_SHA1, now + offsetSteps * 30_000);
    expect(verifyTotp(SEED_SHA1, at(0), now)).toBe(true);
    expect(verifyTotp(SEED_SHA1, at(-1), now)).toBe(true);
    expect(verifyTotp(SEED_SHA1, at(1), now)).toBe(true);
    expect(verifyTotp(SEED_SHA1, at(-2), now)).toBe(false);
    expect(verifyTotp(SEED_SHA1, at(2), now)).toBe(false);
  });

  it('names the step a code belongs to, and refuses steps up to the last one accepted', () => {
    const now = 1_700_000_000_000;
    const current = Math.floor(now / 30_000);
    const at = (offsetSteps: number) => totp(SEED_SHA1, now + offsetSteps * 30_000);
    expect(totpStepOf(SEED_SHA1, at(0), now)).toBe(current);
    expect(totpStepOf(SEED_SHA1, at(-1), now)).toBe(current - 1);
    expect(totpStepOf(SEED_SHA1, at(1), now)).toBe(current + 1);
    expect(totpStepOf(SEED_SHA1, at(0), now, { after: current - 1 })).toBe(current);
    // The code of the last accepted step, or of an earlier one, is not accepted again.
    expect(totpStepOf(SEED_SHA1, at(0), now, { after: current })).toBeNull();
    expect(totpStepOf(SEED_SHA1, at(-1), now, { after: current })).toBeNull();
    expect(totpStepOf(SEED_SHA1, at(1), now, { after: current })).toBe(current + 1);
  });

  it('rejects malformed codes', () => {
    const now = 1_700_000_000_000;
    expect(verifyTotp(SEED_SHA1, '', now)).toBe(false);
    expect(verifyTotp(SEED_SHA1, '12345', now)).toBe(false);
    expect(verifyTotp(SEED_SHA1, 'abcdef', now)).toBe(false);
    expect(verifyTotp(SEED_SHA1, `${totp(SEED_SHA1, now)}0`, now)).toBe(false);
  });

  it('round-trips base32 (RFC 4648 vectors, no padding)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Encode(Buffer.from('f'))).toBe('MY');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Decode('mzxw6ytboi======').toString()).toBe('foobar');
    expect(base32Decode(base32Encode(SEED_SHA512))).toEqual(SEED_SHA512);
  });

  it('builds an otpauth URI authenticator apps accept', () => {
    const url = new URL(otpauthUrl('Cairn', 'alice', 'JBSWY3DPEHPK3PXP'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Cairn:alice');
    expect(url.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(url.searchParams.get('issuer')).toBe('Cairn');
  });
});
