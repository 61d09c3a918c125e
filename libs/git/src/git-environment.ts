/**
 * The environment of every git process Cairn starts (the one home of this rule). git gets a minimal environment built
 * from scratch, never a copy of ours: the service's secrets (database URL, internal tokens…) must not reach git, its
 * hooks or anything they run, and nothing inherited (GIT_DIR, GIT_CONFIG_PARAMETERS…) may point git elsewhere.
 *
 * - PATH and HOME are the only values taken from our environment (git and the programs it runs must be found), and
 *   GNUPGHOME when it is set: the keyring of the gpg that git runs to sign with the instance's OpenPGP key.
 * - No system or global configuration: nothing on the host (signing, hooks, aliases, identities) changes what git
 *   does or produces.
 * - Never a prompt: a git that wants credentials fails instead of waiting for a terminal.
 * - A fixed locale: `LC_ALL=C` gives the same (untranslated) messages on every host, and callers match some of them.
 *   The copies this replaces used `LANG=C`+`LC_ALL=C` or `LANG=C.UTF-8`; `C` was kept because it exists everywhere
 *   (a missing `C.UTF-8` silently falls back to whatever the host has), and git's data output — paths, commit
 *   messages, `-z` records — is bytes either way.
 * - Pathspecs are literal: a user-supplied path after `--` can never be read as pathspec magic (`:(glob)…`,
 *   `:(exclude)…`, wildcards).
 * - Replace refs are ignored: anyone who can push can push `refs/replace/*`; honoured, they would substitute objects
 *   in what the read APIs show, in merges and in merge checks (and they turn off commit-graphs).
 *
 * The last two were only set for the read APIs before; they cost nothing where no pathspec is passed and are on for
 * every git process so that the next caller is safe without having to know.
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

/** The variables {@link gitEnvironment} always sets itself; `extra` may not change them. */
export const GIT_ENVIRONMENT_FIXED_KEYS: readonly string[] = ['PATH', 'HOME', 'GNUPGHOME', ...Object.keys(FIXED)];

/**
 * The environment for one git process: the rule above, plus `extra` — what a particular call needs (identities and
 * dates for `commit-tree`, `GIT_OBJECT_DIRECTORY`/`GIT_ALTERNATE_OBJECT_DIRECTORIES` for a scratch object store,
 * a validated `GIT_PROTOCOL` for the transport, `GIT_FLUSH`…). Entries of `extra` that are `undefined` are left out.
 * `extra` adds to the rule, never weakens it: naming one of {@link GIT_ENVIRONMENT_FIXED_KEYS} throws (a programming
 * error, not a runtime condition).
 */
export function gitEnvironment(extra: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    // When we have none: a home where nothing can be found, the usual home of system users (two of the copies this
    // replaces used `/`, which is a real directory).
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
