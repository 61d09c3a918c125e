import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GIT_ENVIRONMENT_FIXED_KEYS, gitEnvironment } from './git-environment.js';

describe('gitEnvironment', () => {
  const ours: Record<string, string> = {
    PATH: '/opt/cairn/bin:/usr/bin',
    HOME: '/home/cairn',
    // What must never reach git: our secrets, and anything that would point git elsewhere or configure it.
    DATABASE_URL: 'postgres://cairn:secret@db/cairn',
    CAIRN_INTERNAL_TOKEN: 'secret-token',
    GIT_DIR: '/elsewhere.git',
    GIT_CONFIG_PARAMETERS: "'core.hookspath'='/tmp/evil'",
    LANGUAGE: 'de',
  };
  const saved = Object.fromEntries(Object.keys(ours).map((k) => [k, process.env[k]]));

  beforeEach(() => {
    Object.assign(process.env, ours);
  });

  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('is the rule and nothing else: PATH and HOME from ours, no configuration, no prompts, C locale', () => {
    expect(gitEnvironment()).toEqual({
      PATH: '/opt/cairn/bin:/usr/bin',
      HOME: '/home/cairn',
      LANG: 'C',
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_LITERAL_PATHSPECS: '1',
      GIT_NO_REPLACE_OBJECTS: '1',
    });
  });

  it('falls back to a standard PATH and a home that does not exist when we have none', () => {
    delete process.env.PATH;
    delete process.env.HOME;
    const env = gitEnvironment();
    expect(env.PATH).toBe('/usr/local/bin:/usr/bin:/bin');
    expect(env.HOME).toBe('/nonexistent');
  });

  it("passes our GNUPGHOME through when set (the keyring of the gpg git signs with), and only then", () => {
    const before = process.env.GNUPGHOME;
    delete process.env.GNUPGHOME;
    try {
      expect('GNUPGHOME' in gitEnvironment()).toBe(false);
      process.env.GNUPGHOME = '/var/lib/cairn/gnupg';
      expect(gitEnvironment().GNUPGHOME).toBe('/var/lib/cairn/gnupg');
    } finally {
      if (before === undefined) delete process.env.GNUPGHOME;
      else process.env.GNUPGHOME = before;
    }
  });

  it('adds what a call needs and leaves out undefined entries', () => {
    const env = gitEnvironment({
      GIT_PROTOCOL: 'version=2',
      GIT_OBJECT_DIRECTORY: '/scratch/objects',
      CAIRN_PUSH_LOG: undefined,
    });
    expect(env.GIT_PROTOCOL).toBe('version=2');
    expect(env.GIT_OBJECT_DIRECTORY).toBe('/scratch/objects');
    expect('CAIRN_PUSH_LOG' in env).toBe(false);
    expect(env.GIT_LITERAL_PATHSPECS).toBe('1');
  });

  it('never lets extra weaken the rule', () => {
    for (const key of GIT_ENVIRONMENT_FIXED_KEYS) {
      expect(() => gitEnvironment({ [key]: 'x' }), key).toThrow(`${key} is fixed`);
    }
    expect(GIT_ENVIRONMENT_FIXED_KEYS).toEqual(expect.arrayContaining(['PATH', 'HOME', 'GIT_CONFIG_GLOBAL', 'GIT_LITERAL_PATHSPECS']));
  });

  it('gives every call its own object', () => {
    const a = gitEnvironment({ GIT_FLUSH: '0' });
    const b = gitEnvironment();
    expect(a).not.toBe(b);
    expect('GIT_FLUSH' in b).toBe(false);
  });
});
