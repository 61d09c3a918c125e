import { TEAM_UNITS, type TeamPermission } from '@cairn/contracts';

/** Access modes in rising order, as Gitea's `perm.AccessMode`. */
const MODES = ['none', 'read', 'write', 'admin', 'owner'] as const;

/** External trackers and wikis can only ever be read: they never lower a team's permission. */
const READ_ONLY_UNITS = new Set(['repo.ext_issues', 'repo.ext_wiki']);

function rank(mode: string): number {
  const i = (MODES as readonly string[]).indexOf(mode);
  return i < 0 ? 0 : i;
}

/**
 * The lowest access above `none` given by a `units_map` (or `none` when every unit is `none`), leaving out the
 * read-only units: what a team's permission becomes when it is given a `units_map` below admin (Gitea's
 * `MinUnitAccessMode`).
 */
export function minUnitAccess(unitsMap: Record<string, string>): TeamPermission {
  let lowest = 0;
  for (const [unit, mode] of Object.entries(unitsMap)) {
    if (READ_ONLY_UNITS.has(unit)) continue;
    const r = rank(mode);
    if (r > 0 && (lowest === 0 || r < lowest)) lowest = r;
  }
  return MODES[lowest];
}

/** What a team stores: its permission, unit names and per-unit modes (empty when all units share the permission). */
export interface TeamUnitsState {
  permission: TeamPermission;
  units: string[];
  unitsMap: Record<string, string>;
}

/**
 * Combines a requested permission with `units` / `units_map` as Gitea does on team create and edit: below admin, a
 * non-empty `units_map` sets each unit's mode and the permission becomes its {@link minUnitAccess}; else `units` get
 * the permission; admin teams get every unit. `current` is kept where the request says nothing.
 */
export function resolveTeamUnits(
  permission: TeamPermission,
  request: { units?: string[]; units_map?: Record<string, string> },
  current: { units: string[]; unitsMap: Record<string, string> },
): TeamUnitsState {
  const map = request.units_map ?? {};
  const hasMap = Object.keys(map).length > 0;
  let level = permission;
  if (rank(level) < rank('admin') && hasMap) level = minUnitAccess(map);
  if (rank(level) >= rank('admin')) return { permission: level, units: [...TEAM_UNITS], unitsMap: {} };
  if (hasMap) return { permission: level, units: Object.keys(map), unitsMap: { ...map } };
  if (request.units?.length) return { permission: level, units: [...new Set(request.units)], unitsMap: {} };
  return { permission: level, units: current.units, unitsMap: current.unitsMap };
}
