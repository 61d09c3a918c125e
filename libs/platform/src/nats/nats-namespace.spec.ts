import { describe, expect, it } from 'vitest';
import { EVENTS_STREAM, EVENTS_STREAM_SUBJECTS, healthSubject } from '@cairn/contracts';
import { ConfigError, commonSettings, loadSettings } from '../config/settings.js';
import { NatsNamespace, parseNatsNamespace } from './nats-namespace.js';

/** `*` one token, `>` one or more at the end. */
function matches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length || (p[i] !== '*' && p[i] !== s[i])) return false;
  }
  return p.length === s.length;
}

describe('NatsNamespace', () => {
  it('leaves every name as it is in the default installation', () => {
    const ns = NatsNamespace.none;
    expect(ns.subject('identity.user.get')).toBe('identity.user.get');
    expect(ns.subject('repo.evt.>')).toBe('repo.evt.>');
    expect(ns.name('identity-service')).toBe('identity-service');
    expect(ns.name(EVENTS_STREAM)).toBe('CAIRN_EVENTS');
    expect(ns.label).toBe('default');
    expect(new NatsNamespace('').subject(healthSubject('repo'))).toBe('repo.health.check');
  });

  it('puts subjects and patterns under the namespace and prefixes names', () => {
    const ns = new NatsNamespace('team-a');
    expect(ns.subject('identity.user.get')).toBe('team-a.cairn.identity.user.get');
    expect(ns.subject('*.evt.>')).toBe('team-a.cairn.*.evt.>');
    expect(ns.name('identity-service')).toBe('team-a_identity-service');
    expect(ns.name(EVENTS_STREAM)).toBe('team-a_CAIRN_EVENTS');
    expect(ns.label).toBe('team-a');
  });

  it("keeps each installation's events out of the other installations' streams", () => {
    const a = new NatsNamespace('a');
    const b = new NatsNamespace('b');
    const event = 'repo.evt.push.received';
    const streamOf = (ns: NatsNamespace) => EVENTS_STREAM_SUBJECTS.map((s) => ns.subject(s));
    const captured = (ns: NatsNamespace, subject: string) => streamOf(ns).some((p) => matches(p, subject));
    expect(captured(a, a.subject(event))).toBe(true);
    expect(captured(b, a.subject(event))).toBe(false);
    expect(captured(NatsNamespace.none, a.subject(event))).toBe(false);
    expect(captured(a, event)).toBe(false);
    // NATS refuses a stream whose subjects overlap another's: `a.*.evt.>` would overlap the default `*.evt.>`
    // (both match `a.evt.evt.x`); with the marker token nothing matches both.
    const probe = (ns: NatsNamespace) => ns.subject('evt.evt.x');
    expect(captured(NatsNamespace.none, probe(a))).toBe(false);
    expect(streamOf(a).every((p) => p.split('.')[1] !== '*' && p.split('.')[1] !== 'evt')).toBe(true);
  });

  it('accepts one subject token of letters, digits, - and _', () => {
    expect(parseNatsNamespace('  ci_42-x ')).toBe('ci_42-x');
    expect(parseNatsNamespace('')).toBe('');
    for (const bad of ['a.b', 'a b', 'a*', 'a>', '>', 'a/b', 'ä', 'x'.repeat(33)]) {
      expect(() => parseNatsNamespace(bad), bad).toThrow(/letters, digits/);
    }
    expect(() => new NatsNamespace('a.b')).toThrow();
  });

  it('is the setting [nats] NAMESPACE, empty by default, refused with a message naming it', () => {
    expect(loadSettings(commonSettings, {}).natsNamespace).toBe('');
    expect(loadSettings(commonSettings, { CAIRN__NATS__NAMESPACE: 'blue' }).natsNamespace).toBe('blue');
    expect(() => loadSettings(commonSettings, { CAIRN__NATS__NAMESPACE: 'blue.green' })).toThrow(ConfigError);
    expect(() => loadSettings(commonSettings, { CAIRN__NATS__NAMESPACE: 'blue green' })).toThrow(
      /\[nats\] NAMESPACE \(CAIRN__NATS__NAMESPACE\) = "blue green"/,
    );
  });
});
