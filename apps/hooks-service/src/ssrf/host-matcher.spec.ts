import { describe, expect, it } from 'vitest';
import { isAllowedAddress, parseHostMatchList } from './host-matcher.js';
import { formatIp, isExternal, isLoopback, isPrivate, parseCidr, parseIp } from './ip.js';

const allowed = (list: string, host: string, address = host) => isAllowedAddress(parseHostMatchList(list), host, address);

describe('IP parsing', () => {
  it('parses IPv4, IPv6 (compressed, embedded IPv4, zone, brackets) and normalises IPv4-mapped to IPv4', () => {
    expect(formatIp(parseIp('10.1.2.3')!)).toBe('10.1.2.3');
    expect(formatIp(parseIp('2001:DB8:0:0:0:0:0:1')!)).toBe('2001:db8::1');
    expect(formatIp(parseIp('[::1]')!)).toBe('::1');
    expect(formatIp(parseIp('fe80::1%eth0')!)).toBe('fe80::1');
    expect(parseIp('::ffff:127.0.0.1')).toEqual({ family: 4, bytes: Uint8Array.from([127, 0, 0, 1]) });
    expect(parseIp('::ffff:7f00:1')).toEqual({ family: 4, bytes: Uint8Array.from([127, 0, 0, 1]) });
    expect(parseIp('example.com')).toBeNull();
    expect(parseIp('1.2.3.256')).toBeNull();
  });

  it('parses CIDRs, including IPv4-mapped networks', () => {
    expect(parseCidr('10.0.0.0/8')).toMatchObject({ family: 4, prefix: 8 });
    expect(parseCidr('::ffff:10.0.0.0/104')).toMatchObject({ family: 4, prefix: 8 });
    expect(parseCidr('10.0.0.0/33')).toBeNull();
    expect(parseCidr('10.0.0.0')).toBeNull();
  });

  it('classifies loopback, private, special-purpose and external addresses', () => {
    const c = (s: string) => {
      const ip = parseIp(s)!;
      return { loop: isLoopback(ip), priv: isPrivate(ip), ext: isExternal(ip) };
    };
    expect(c('127.0.0.1')).toEqual({ loop: true, priv: false, ext: false });
    expect(c('::1')).toEqual({ loop: true, priv: false, ext: false });
    expect(c('::ffff:127.0.0.1')).toEqual({ loop: true, priv: false, ext: false });
    expect(c('10.0.0.1')).toEqual({ loop: false, priv: true, ext: false });
    expect(c('172.31.255.255')).toEqual({ loop: false, priv: true, ext: false });
    expect(c('192.168.1.1')).toEqual({ loop: false, priv: true, ext: false });
    expect(c('fd00::1')).toEqual({ loop: false, priv: true, ext: false });
    expect(c('100.64.0.1').ext).toBe(false); // CGNAT
    expect(c('169.254.169.254').ext).toBe(false); // link-local metadata
    expect(c('0.0.0.0').ext).toBe(false);
    expect(c('::').ext).toBe(false);
    expect(c('224.0.0.1').ext).toBe(false);
    expect(c('255.255.255.255').ext).toBe(false);
    expect(c('fe80::1').ext).toBe(false);
    expect(c('64:ff9b::a9fe:a9fe').ext).toBe(false); // NAT64 of 169.254.169.254
    expect(c('2002:7f00:1::').ext).toBe(false); // 6to4 of 127.0.0.1
    expect(c('8.8.8.8')).toEqual({ loop: false, priv: false, ext: true });
    expect(c('2606:4700:4700::1111').ext).toBe(true);
    expect(c('::ffff:8.8.8.8').ext).toBe(true);
  });
});

describe('ALLOWED_HOST_LIST', () => {
  it('defaults to external: public addresses only', () => {
    expect(allowed('external', 'example.com', '93.184.216.34')).toBe(true);
    expect(allowed('external', '127.0.0.1')).toBe(false);
    expect(allowed('external', 'localhost', '::1')).toBe(false);
    expect(allowed('external', 'intranet', '10.0.0.5')).toBe(false);
    expect(allowed('external', 'x', '::ffff:10.0.0.5')).toBe(false);
  });

  it('loopback and private builtins', () => {
    expect(allowed('loopback', '127.0.0.1')).toBe(true);
    expect(allowed('loopback', 'localhost', '::1')).toBe(true);
    expect(allowed('loopback', 'x', '::ffff:127.0.0.2')).toBe(true);
    expect(allowed('loopback', '10.0.0.1')).toBe(false);
    expect(allowed('private', '192.168.0.10')).toBe(true);
    expect(allowed('private', '127.0.0.1')).toBe(false);
    expect(allowed('loopback,private', '127.0.0.1')).toBe(true);
  });

  it('* allows everything', () => {
    expect(allowed('*', '127.0.0.1')).toBe(true);
    expect(allowed('*', 'any', '10.1.1.1')).toBe(true);
  });

  it('CIDRs, IPv4 and IPv6, also for IPv4-mapped addresses', () => {
    expect(allowed('10.0.0.0/8', '10.200.1.1')).toBe(true);
    expect(allowed('10.0.0.0/8', '11.0.0.1')).toBe(false);
    expect(allowed('10.0.0.0/8', 'h', '::ffff:10.9.9.9')).toBe(true);
    expect(allowed('fd12:3456::/32', 'h', 'fd12:3456:1::1')).toBe(true);
    expect(allowed('fd12:3456::/32', 'h', 'fd12:3457::1')).toBe(false);
    expect(allowed('192.168.1.0/24', 'h', '192.168.2.1')).toBe(false);
  });

  it('host globs match the host name (case-insensitive) or the address text', () => {
    expect(allowed('*.example.com', 'hooks.Example.com', '10.0.0.1')).toBe(true);
    expect(allowed('*.example.com', 'example.com', '10.0.0.1')).toBe(false);
    expect(allowed('hook?.internal', 'hook1.internal', '10.0.0.1')).toBe(true);
    expect(allowed('ci.internal', 'ci.internal', '10.0.0.1')).toBe(true);
    expect(allowed('127.0.0.*', 'localhost', '127.0.0.1')).toBe(true);
    expect(allowed('[a-c]i.internal', 'bi.internal', '10.0.0.1')).toBe(true);
  });

  it('refuses bad entries at configuration time', () => {
    expect(() => parseHostMatchList('10.0.0.0/99')).toThrow(/CIDR/);
    expect(() => parseHostMatchList('host[abc')).toThrow(/unclosed/);
    expect(() => parseHostMatchList('a\\')).toThrow(/backslash/);
    expect(() => parseHostMatchList(' loopback , , private ')).not.toThrow();
  });
});
