import { TEAM_UNITS, type TeamPermission } from '@cairn/contracts';

/** Access modes in rising order, as Gitea's `perm.AccessMode`. */
const MODES = ['none', 'read', 'write', 'admin', 'owner'] as const;

/** External trackers and wikis can only ever be read: they never lower a team's permission. */
const READ_ONLY_UNITS = new Set(['repo.ext_issues', 'repo.ext_wiki']);

function rank(mode: string): number {
  const i = (MODES as readonly string[]).indexOf(mode);
  return i < 0 ? 0 : i;
}

/** Gitea's `MinUnitAccessMode`: the lowest access above `none` in a `units_map`, read-only units left out. */
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

/** As Gitea on team create/edit: below admin, a non-empty `units_map` sets the permission ({@link minUnitAccess}). */
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
