/**
 * Every git process gets a minimal environment built from scratch (PATH, HOME, GNUPGHOME only): our secrets must not
 * reach git or its hooks, and inherited GIT_* must not redirect it. No system/global config, no prompts, `LC_ALL=C`
 * (callers match messages; `C` exists everywhere), literal pathspecs (user paths are never magic), replace refs off
 * (anyone who can push could substitute objects).
 */
const FIXED = {
  LANG: 'C',
  LC_ALL: 'C',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  GIT_LITERAL_PATHSPECS: '1',
  GIT_NO_REPLACE_OBJECTS: '1',
} as const;

export const GIT_ENVIRONMENT_FIXED_KEYS: readonly string[] = ['PATH', 'HOME', 'GNUPGHOME', ...Object.keys(FIXED)];

/** Naming a fixed key throws (a programming error). */
export function gitEnvironment(extra: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    // Without one: a home where nothing can be found.
    HOME: process.env.HOME ?? '/nonexistent',
    ...(process.env.GNUPGHOME ? { GNUPGHOME: process.env.GNUPGHOME } : {}),
    ...FIXED,
  };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) continue;
    if (GIT_ENVIRONMENT_FIXED_KEYS.includes(key)) {
      throw new Error(`gitEnvironment: ${key} is fixed by the git environment rule and cannot be passed as extra`);
    }
    env[key] = value;
  }
  return env;
}
