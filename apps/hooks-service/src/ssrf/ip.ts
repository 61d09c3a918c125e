import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as bytes: 4 for IPv4 (IPv4-mapped IPv6 addresses are normalised to IPv4), 16 for IPv6. */
export interface IpAddress {
  family: 4 | 6;
  bytes: Uint8Array;
}

export interface IpNetwork {
  family: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}

function parseV4(text: string): Uint8Array | null {
  if (!isIPv4(text)) return null;
  return Uint8Array.from(text.split('.').map(Number));
}

function parseV6(text: string): Uint8Array | null {
  if (!isIPv6(text)) return null;
  let s = text;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const v4 = parseV4(dotted[2]);
    if (!v4) return null;
    s = `${dotted[1]}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  let groups: string[];
  if (s.includes('::')) {
    const [h, r] = s.split('::');
    const hs = h ? h.split(':') : [];
    const rs = r ? r.split(':') : [];
    groups = [...hs, ...Array<string>(8 - hs.length - rs.length).fill('0'), ...rs];
  } else {
    groups = s.split(':');
  }
  const words = groups.map((g) => parseInt(g, 16));
  if (words.length !== 8 || words.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return null;
  const out = new Uint8Array(16);
  words.forEach((w, i) => {
    out[i * 2] = w >> 8;
    out[i * 2 + 1] = w & 0xff;
  });
  return out;
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** Parses an IPv4 or IPv6 literal (brackets and a zone id are allowed); null if it is not an address. */
export function parseIp(text: string): IpAddress | null {
  let s = text.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const v4 = parseV4(s);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = parseV6(s);
  if (!v6) return null;
  if (MAPPED_PREFIX.every((b, i) => v6[i] === b)) return { family: 4, bytes: v6.slice(12) };
  return { family: 6, bytes: v6 };
}

/** Parses `addr/prefix`; null if it is not a CIDR. An IPv4-mapped IPv6 network becomes the IPv4 network. */
export function parseCidr(text: string): IpNetwork | null {
  const slash = text.indexOf('/');
  if (slash < 0) return null;
  const prefixText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  let prefix = Number(prefixText);
  const raw = text.slice(0, slash);
  const v4 = parseV4(raw);
  if (v4) return prefix <= 32 ? { family: 4, bytes: v4, prefix } : null;
  const v6 = parseV6(raw);
  if (!v6 || prefix > 128) return null;
  if (MAPPED_PREFIX.every((b, i) => v6[i] === b) && prefix >= 96) {
    prefix -= 96;
    return { family: 4, bytes: v6.slice(12), prefix };
  }
  return { family: 6, bytes: v6, prefix };
}

export function networkContains(net: IpNetwork, ip: IpAddress): boolean {
  if (net.family !== ip.family) return false;
  let bits = net.prefix;
  for (let i = 0; i < net.bytes.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((net.bytes[i] & mask) !== (ip.bytes[i] & mask)) return false;
  }
  return true;
}

export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return Array.from(ip.bytes).join('.');
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((ip.bytes[i] << 8) | ip.bytes[i + 1]);
  // Longest run of zero words (length ≥ 2) becomes "::".
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

const nets = (...cidrs: string[]): IpNetwork[] => cidrs.map((c) => parseCidr(c)!);

const LOOPBACK = nets('127.0.0.0/8', '::1/128');
/** Not global unicast: unspecified, "this network", link-local, multicast, broadcast, reserved (240/4). */
const NOT_GLOBAL = nets(
  '0.0.0.0/8', '169.254.0.0/16', '224.0.0.0/4', '240.0.0.0/4',
  '::/128', '::/96', 'fe80::/10', 'ff00::/8',
);
/** Private ranges plus the special-purpose ones Gitea also refuses as "external" (CGNAT, metadata, 6to4, …). */
const PRIVATE = nets(
  '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7', 'fec0::/10',
  '100.64.0.0/10', '168.63.129.16/32', '192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '198.18.0.0/15',
  '198.51.100.0/24', '203.0.113.0/24',
  '100::/64', '64:ff9b::/96', '64:ff9b:1::/48', '2001::/32', '2001:10::/28', '2001:20::/28', '2001:db8::/32',
  '2002::/16',
);

export function isLoopback(ip: IpAddress): boolean {
  return LOOPBACK.some((n) => networkContains(n, ip));
}

export function isPrivate(ip: IpAddress): boolean {
  return PRIVATE.some((n) => networkContains(n, ip));
}

/** A routable public address: global unicast, neither loopback nor private nor special-purpose. */
export function isExternal(ip: IpAddress): boolean {
  if (isLoopback(ip) || isPrivate(ip)) return false;
  if (ip.family === 4 && ip.bytes.every((b) => b === 255)) return false;
  return !NOT_GLOBAL.some((n) => networkContains(n, ip));
}
