import { formatIp, isExternal, isLoopback, isPrivate, parseCidr, parseIp, type IpAddress, type IpNetwork } from './ip.js';

export const HOST_MATCH_BUILTINS = ['external', 'private', 'loopback'] as const;
type Builtin = (typeof HOST_MATCH_BUILTINS)[number];

/** Host patterns are shell-style, matched against the lower-cased host name or the address text. */
export interface HostMatchList {
  readonly text: string;
  readonly builtins: ReadonlySet<Builtin>;
  readonly networks: readonly IpNetwork[];
  readonly patterns: readonly RegExp[];
  readonly any: boolean;
}

/** Compiles a host pattern with path.Match semantics (`*`, `?`, `[...]` with `^` negation, `\` escapes). */
export function compileHostPattern(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\') {
      if (i + 1 >= pattern.length) throw new Error(`bad host pattern "${pattern}": trailing backslash`);
      re += escapeRegex(pattern[++i]);
    } else if (c === '[') {
      const close = findClassEnd(pattern, i);
      if (close < 0) throw new Error(`bad host pattern "${pattern}": unclosed [`);
      let body = pattern.slice(i + 1, close);
      let negate = false;
      if (body.startsWith('^')) {
        negate = true;
        body = body.slice(1);
      }
      if (body === '') throw new Error(`bad host pattern "${pattern}": empty character class`);
      re += `[${negate ? '^' : ''}${classBody(body)}]`;
      i = close;
    } else re += escapeRegex(c);
  }
  return new RegExp(`^${re}$`);
}

function findClassEnd(p: string, open: number): number {
  for (let j = open + 1; j < p.length; j++) {
    if (p[j] === '\\') j++;
    else if (p[j] === ']' && j > open + 1 + (p[open + 1] === '^' ? 1 : 0)) return j;
  }
  return -1;
}

function classBody(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && i + 1 < body.length) out += escapeRegex(body[++i]);
    else if (c === '-') out += '-';
    else out += /[\]\\^]/.test(c) ? `\\${c}` : c;
  }
  return out;
}

function escapeRegex(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

export function parseHostMatchList(text: string): HostMatchList {
  const builtins = new Set<Builtin>();
  const networks: IpNetwork[] = [];
  const patterns: RegExp[] = [];
  let any = false;
  for (const raw of text.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const cidr = parseCidr(entry);
    if (cidr) networks.push(cidr);
    else if ((HOST_MATCH_BUILTINS as readonly string[]).includes(entry)) builtins.add(entry as Builtin);
    else if (entry.includes('/')) throw new Error(`"${entry}" is not a valid CIDR`);
    else {
      if (entry === '*') any = true;
      patterns.push(compileHostPattern(entry));
    }
  }
  return { text, builtins, networks, patterns, any };
}

function matchPattern(list: HostMatchList, host: string): boolean {
  const h = host.trim().toLowerCase();
  return list.patterns.some((p) => p.test(h));
}

function matchIp(list: HostMatchList, ip: IpAddress): boolean {
  if (list.any) return true;
  if (list.builtins.has('external') && isExternal(ip)) return true;
  if (list.builtins.has('private') && isPrivate(ip)) return true;
  if (list.builtins.has('loopback') && isLoopback(ip)) return true;
  return list.networks.some((n) => n.family === ip.family && cidrHas(n, ip));
}

function cidrHas(n: IpNetwork, ip: IpAddress): boolean {
  let bits = n.prefix;
  for (let i = 0; i < n.bytes.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((n.bytes[i] & mask) !== (ip.bytes[i] & mask)) return false;
  }
  return true;
}

/** Allowed when the host name matches, or the address does (text pattern, built-in network or CIDR), as Gitea. */
export function isAllowedTarget(list: HostMatchList, host: string, ip: IpAddress): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return matchPattern(list, bare) || matchPattern(list, formatIp(ip)) || matchIp(list, ip);
}

export function isAllowedAddress(list: HostMatchList, host: string, address: string): boolean {
  const ip = parseIp(address);
  return ip !== null && isAllowedTarget(list, host, ip);
}
