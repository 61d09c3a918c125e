/** A CRC32 suffix (as GitHub's) so secret scanners spot tokens and typos are refused without a lookup. */
export const ACCESS_TOKEN_PREFIX = 'cairn_';
export const ACCESS_TOKEN_RANDOM_LENGTH = 40;
export const ACCESS_TOKEN_CHECKSUM_LENGTH = 6;
export const ACCESS_TOKEN_LENGTH = ACCESS_TOKEN_PREFIX.length + ACCESS_TOKEN_RANDOM_LENGTH + ACCESS_TOKEN_CHECKSUM_LENGTH;

export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const CRC_TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function accessTokenChecksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < ACCESS_TOKEN_CHECKSUM_LENGTH; i++) {
    out = BASE62_ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

const TOKEN_SHAPE = new RegExp(
  `^${ACCESS_TOKEN_PREFIX}[0-9A-Za-z]{${ACCESS_TOKEN_RANDOM_LENGTH + ACCESS_TOKEN_CHECKSUM_LENGTH}}$`,
);

export function isWellFormedAccessToken(value: string): boolean {
  if (value.length !== ACCESS_TOKEN_LENGTH || !TOKEN_SHAPE.test(value)) return false;
  const body = value.slice(0, -ACCESS_TOKEN_CHECKSUM_LENGTH);
  return accessTokenChecksum(body) === value.slice(-ACCESS_TOKEN_CHECKSUM_LENGTH);
}
