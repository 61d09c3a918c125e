import type { MergeDoStyle, UpdateStyle } from './pulls.dto.js';
import { MERGE_STYLES, type MergeStyle, type RepositoryDto } from './repository.dto.js';

/** Gitea's order (`PullRequestsConfig.IsMergeStyleAllowed`); the web merge box and repo-service both read this one rule. */
export const MERGE_STYLE_SETTING = {
  merge: 'allow_merge_commits',
  rebase: 'allow_rebase',
  'rebase-merge': 'allow_rebase_explicit',
  squash: 'allow_squash_merge',
  'fast-forward-only': 'allow_fast_forward_only_merge',
  'manually-merged': 'allow_manual_merge',
} as const satisfies Record<MergeDoStyle, keyof RepositoryDto>;

export type MergeSettings = Pick<RepositoryDto, (typeof MERGE_STYLE_SETTING)[MergeDoStyle] | 'allow_rebase_update'>;

export function mergeStyleAllowed(settings: MergeSettings, style: MergeDoStyle): boolean {
  return settings[MERGE_STYLE_SETTING[style]] === true;
}

/** `manually-merged` is never performed. */
export function allowedMergeStyles(settings: MergeSettings): MergeStyle[] {
  return MERGE_STYLES.filter((style) => mergeStyleAllowed(settings, style));
}

export function updateStyleAllowed(settings: MergeSettings, style: UpdateStyle): boolean {
  return style === 'merge' || settings.allow_rebase_update === true;
}

export function allowedUpdateStyles(settings: MergeSettings): UpdateStyle[] {
  return (['merge', 'rebase'] as const).filter((style) => updateStyleAllowed(settings, style));
}
