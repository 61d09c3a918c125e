import { DomainError } from '@cairn/contracts';

/** Gitea's (and GitHub's) name rule for Actions variables and secrets, compared case-insensitively. */
const NAME_PATTERN = /^[A-Z_][A-Z0-9_]*$/i;
/** Prefixes the runner itself sets. */
const RESERVED_PREFIX = /^GIT(EA|HUB)_/i;
const RESERVED_NAME = 'CI';

/** Answers the stored, upper-case form: names are unique per scope without regard to case. */
export function actionsName(kind: 'variable' | 'secret', name: string): string {
  if (!NAME_PATTERN.test(name)) {
    throw DomainError.invalid(
      `invalid ${kind} name "${name}": it must contain only letters, digits and underscores and must not start ` +
        'with a digit (^[a-zA-Z_][a-zA-Z0-9_]*$)',
    );
  }
  if (RESERVED_PREFIX.test(name)) {
    throw DomainError.invalid(`invalid ${kind} name "${name}": it must not start with GITHUB_ or GITEA_`);
  }
  if (name.toUpperCase() === RESERVED_NAME) {
    throw DomainError.invalid(`invalid ${kind} name "${name}": CI is reserved`);
  }
  return name.toUpperCase();
}

/** The upper-case form used to look a name up; null for a name no variable or secret can have (nothing to find). */
export const lookupName = (name: string): string | null => (NAME_PATTERN.test(name) ? name.toUpperCase() : null);

/** Refuses text PostgreSQL cannot store (NUL characters) with a 400 instead of a failed write. */
export function storableText(text: string, field: string): string {
  if (text.includes('\u0000')) throw DomainError.invalid(`${field} must not contain NUL characters`);
  return text;
}

/** Gitea's `VariableDataMaxLength` / `SecretDataMaxLength` (characters for variables, bytes for secrets). */
export const ACTIONS_DATA_MAX = 65_536;
/** Gitea's `VariableDescriptionMaxLength` / `SecretDescriptionMaxLength`: longer descriptions are cut (characters). */
export const ACTIONS_DESCRIPTION_MAX = 4_096;

export function cutDescription(description: string | undefined): string {
  const chars = [...storableText(description ?? '', 'description')];
  return chars.length > ACTIONS_DESCRIPTION_MAX ? chars.slice(0, ACTIONS_DESCRIPTION_MAX).join('') : chars.join('');
}
