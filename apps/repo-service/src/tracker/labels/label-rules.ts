import { DomainError, type CreateLabelBody, type EditLabelBody } from '@cairn/contracts';

/** Gitea's `NormalizeColor`: lower case, a leading `#`, `rgb` expanded to `rrggbb` (the pattern was checked at the edge). */
export function normalizeColor(color: string): string {
  let c = color.trim().toLowerCase();
  if (!c.startsWith('#')) c = `#${c}`;
  if (c.length === 4) c = `#${c[1]}${c[1]}${c[2]}${c[2]}${c[3]}${c[3]}`;
  return c;
}

/** Gitea's `Label.ExclusiveScope`: the name up to its last `/` when exclusive and the `/` is neither first nor last. */
export function exclusiveScope(label: { name: string; exclusive: boolean }): string {
  if (!label.exclusive) return '';
  const at = label.name.lastIndexOf('/');
  if (at <= 0 || at === label.name.length - 1) return '';
  return label.name.slice(0, at);
}

/** Each exclusive scope among `added` pushes out the other labels of that scope (Gitea's `newIssueLabel`). */
export function withExclusiveScopes<L extends { id: number; name: string; exclusive: boolean }>(current: L[], added: L[]): L[] {
  const result = new Map<number, L>(current.map((l) => [l.id, l]));
  for (const label of added) {
    const scope = exclusiveScope(label);
    if (scope) {
      for (const other of [...result.values()]) {
        if (other.id !== label.id && exclusiveScope(other) === scope) result.delete(other.id);
      }
    }
    result.set(label.id, label);
  }
  return [...result.values()];
}

/** All ids or all names, never both (400, as Gitea's `prepareForReplaceOrAdd`). */
export function parseLabelRefs(labels: unknown[]): { ids: number[]; names: string[] } {
  const ids: number[] = [];
  const names: string[] = [];
  for (const value of labels) {
    if (typeof value === 'number' && Number.isInteger(value)) ids.push(value);
    else if (typeof value === 'string') names.push(value);
    else throw DomainError.invalid('a label must be an integer or a string');
  }
  if (ids.length && names.length) throw DomainError.invalid('labels should be an array of strings or integers');
  return { ids, names };
}

export function newLabelData(body: CreateLabelBody, now: Date) {
  return {
    name: body.name,
    color: normalizeColor(body.color),
    description: body.description ?? '',
    exclusive: body.exclusive === true,
    archivedAt: body.is_archived ? now : null,
  };
}

/** Only the fields given: an edit not naming `is_archived` keeps it (Gitea would unarchive). */
export function labelChanges(body: EditLabelBody, current: { archivedAt: Date | null }, now: Date) {
  return {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.color !== undefined ? { color: normalizeColor(body.color) } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.exclusive !== undefined ? { exclusive: body.exclusive } : {}),
    ...(body.is_archived !== undefined ? { archivedAt: body.is_archived ? (current.archivedAt ?? now) : null } : {}),
  };
}
