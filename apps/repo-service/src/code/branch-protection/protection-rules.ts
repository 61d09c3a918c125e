import { compileGlob, isGlobPattern } from './glob.js';
import type { BranchProtectionRow } from './branch-protection.repository.js';

/** Gitea's `GetFirstMatchProtectedBranchRule`: an exact (case-insensitive) name wins, else the first matching glob. */
export function ruleForBranch<R extends Pick<BranchProtectionRow, 'ruleName'>>(rules: R[], branch: string): R | null {
  const exact = rules.find((r) => !isGlobPattern(r.ruleName) && r.ruleName.toLowerCase() === branch.toLowerCase());
  if (exact) return exact;
  return rules.find((r) => isGlobPattern(r.ruleName) && globMatches(r.ruleName, branch)) ?? null;
}

function globMatches(ruleName: string, branch: string): boolean {
  try {
    return compileGlob(ruleName, ['/']).test(branch);
  } catch {
    // Gitea falls back to the rule name taken literally.
    return ruleName === branch;
  }
}

/** `;`-separated, lower-cased file globs (`.` and `/` separate) as Gitea parses them; invalid ones are skipped. */
export function filePatterns(text: string): RegExp[] {
  const out: RegExp[] = [];
  for (const raw of text.toLowerCase().split(';')) {
    const expr = raw.trim();
    if (!expr) continue;
    try {
      out.push(compileGlob(expr, ['.', '/']));
    } catch {
      // skipped, as Gitea does
    }
  }
  return out;
}

/** Paths matching a protected pattern: Gitea refuses changes to them for everyone. */
export function protectedPaths(rule: Pick<BranchProtectionRow, 'protectedFilePatterns'>, paths: string[]): string[] {
  const patterns = filePatterns(rule.protectedFilePatterns);
  if (!patterns.length) return [];
  return paths.filter((p) => patterns.some((g) => g.test(p.trim().toLowerCase())));
}

/** True when every path matches an unprotected pattern (then a push outside the allow-list is still accepted). */
export function allUnprotected(rule: Pick<BranchProtectionRow, 'unprotectedFilePatterns'>, paths: string[]): boolean {
  const patterns = filePatterns(rule.unprotectedFilePatterns);
  if (!patterns.length || !paths.length) return false;
  return paths.every((p) => patterns.some((g) => g.test(p.trim().toLowerCase())));
}

/** Who is asking: the user's id and the lower-cased names of the owning organization's teams they are in. */
export interface Member {
  userId: number;
  teams: Set<string>;
  canWrite: boolean;
  /** A deploy key passes the allow-lists only through their `…_deploy_keys` flags (Gitea's `preReceiveBranch`). */
  deployKey?: boolean;
}

function listed(ids: number[], teams: string[], who: Member): boolean {
  return ids.includes(who.userId) || teams.some((t) => who.teams.has(t.toLowerCase()));
}

/** Gitea's `CanUserPush`. */
export function canUserPush(rule: BranchProtectionRow, who: Member): boolean {
  if (!rule.canPush) return false;
  if (who.deployKey) return !rule.enableWhitelist || rule.whitelistDeployKeys;
  if (!rule.enableWhitelist) return who.canWrite;
  return listed(rule.whitelistUserIds, rule.whitelistTeams, who);
}

/** Gitea's `CanUserForcePush`: force-pushing extends pushing. */
export function canUserForcePush(rule: BranchProtectionRow, who: Member): boolean {
  if (!rule.canForcePush) return false;
  // A deploy key's force push answers to the force-push allow-list alone (Gitea checks no push allow-list then).
  if (who.deployKey) return rule.canPush && (!rule.enableForcePushAllowlist || rule.forcePushAllowlistDeployKeys);
  if (!rule.enableForcePushAllowlist) return canUserPush(rule, who);
  return listed(rule.forcePushAllowlistUserIds, rule.forcePushAllowlistTeams, who) && canUserPush(rule, who);
}

/** Gitea's `IsUserMergeWhitelisted`. */
export function canUserMerge(rule: BranchProtectionRow, who: Member): boolean {
  if (!rule.enableMergeWhitelist) return who.canWrite;
  return listed(rule.mergeWhitelistUserIds, rule.mergeWhitelistTeams, who);
}
