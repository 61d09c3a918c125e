import type { MergeDoStyle, UpdateStyle } from './pulls.dto.js';
import { MERGE_STYLES, type MergeStyle, type RepositoryDto } from './repository.dto.js';

/**
 * The repository setting that allows each merge style, in Gitea's order (`PullRequestsConfig.IsMergeStyleAllowed`).
 * The one home of the rule: the web merge box offers these styles and repo-service refuses the others.
 */
export const MERGE_STYLE_SETTING = {
  merge: 'allow_merge_commits',
  rebase: 'allow_rebase',
  'rebase-merge': 'allow_rebase_explicit',
  squash: 'allow_squash_merge',
  'fast-forward-only': 'allow_fast_forward_only_merge',
  'manually-merged': 'allow_manual_merge',
} as const satisfies Record<MergeDoStyle, keyof RepositoryDto>;

/** The pull request settings the merge and update rules read, as `RepositoryDto` carries them. */
export type MergeSettings = Pick<RepositoryDto, (typeof MERGE_STYLE_SETTING)[MergeDoStyle] | 'allow_rebase_update'>;

export function mergeStyleAllowed(settings: MergeSettings, style: MergeDoStyle): boolean {
  return settings[MERGE_STYLE_SETTING[style]] === true;
}

/** The merges Cairn performs that `settings` allow, in Gitea's order (`manually-merged` is never performed). */
export function allowedMergeStyles(settings: MergeSettings): MergeStyle[] {
  return MERGE_STYLES.filter((style) => mergeStyleAllowed(settings, style));
}

/** Updating a branch by merge is always allowed; by rebase only with `allow_rebase_update`. */
export function updateStyleAllowed(settings: MergeSettings, style: UpdateStyle): boolean {
  return style === 'merge' || settings.allow_rebase_update === true;
}

export function allowedUpdateStyles(settings: MergeSettings): UpdateStyle[] {
  return (['merge', 'rebase'] as const).filter((style) => updateStyleAllowed(settings, style));
}
