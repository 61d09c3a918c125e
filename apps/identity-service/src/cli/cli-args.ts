/** A tiny argument reader for Gitea-style commands: `--name value`, `--name=value`, boolean `--flag[=true|false]`. */
export interface ParsedArgs {
  positionals: string[];
  strings: Map<string, string>;
  booleans: Map<string, boolean>;
}

export class UsageError extends Error {}

export function parseCliArgs(argv: string[], stringOptions: string[], booleanOptions: string[]): ParsedArgs {
  const out: ParsedArgs = { positionals: [], strings: new Map(), booleans: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const inline = eq < 0 ? undefined : arg.slice(eq + 1);
    if (booleanOptions.includes(name)) {
      if (inline === undefined) out.booleans.set(name, true);
      else if (/^(true|1|yes)$/i.test(inline)) out.booleans.set(name, true);
      else if (/^(false|0|no)$/i.test(inline)) out.booleans.set(name, false);
      else throw new UsageError(`--${name} takes true or false, not "${inline}"`);
    } else if (stringOptions.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      out.strings.set(name, value);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return out;
}
