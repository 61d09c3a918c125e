import {
  DomainError, MERGE_STYLES, MERGE_STYLE_SETTING,
  type CollaboratorPermission, type CreateBranchProtectionBody, type EditRepoBody, type MergeStyle,
} from '@cairn/contracts';

// Form readers only translate Gitea's field names into API bodies; every rule stays in the owning service.

const checked = (form: Record<string, string>, name: string): boolean => form[name] === 'on' || form[name] === 'true';

export function repoOptionsFromForm(form: Record<string, string>): EditRepoBody {
  const body: EditRepoBody = {
    name: (form.repo_name ?? '').trim(),
    description: form.description ?? '',
    website: (form.website ?? '').trim(),
    private: checked(form, 'private'),
    template: checked(form, 'template'),
  };
  const branch = (form.default_branch ?? '').trim();
  if (branch) body.default_branch = branch;
  return body;
}

/** Gitea's pull-request option checkboxes (`action=advanced`); the API field each sets is the style's setting. */
export const MERGE_STYLE_FIELDS = ([
  { style: 'merge', field: 'pulls_allow_merge', label: 'Create merge commit' },
  { style: 'rebase', field: 'pulls_allow_rebase', label: 'Rebase then fast-forward' },
  { style: 'rebase-merge', field: 'pulls_allow_rebase_merge', label: 'Rebase then create merge commit' },
  { style: 'squash', field: 'pulls_allow_squash', label: 'Squash' },
  { style: 'fast-forward-only', field: 'pulls_allow_fast_forward_only', label: 'Fast-forward only' },
] as const satisfies ReadonlyArray<{ style: MergeStyle; field: string; label: string }>)
  .map((f) => ({ ...f, body: MERGE_STYLE_SETTING[f.style] }));

export function mergeOptionsFromForm(form: Record<string, string>): EditRepoBody {
  const body: EditRepoBody = { default_delete_branch_after_merge: checked(form, 'default_delete_branch_after_merge') };
  for (const { field, body: key } of MERGE_STYLE_FIELDS) body[key] = checked(form, field);
  const style = form.pulls_default_merge_style;
  if (style) {
    if (!(MERGE_STYLES as readonly string[]).includes(style)) throw DomainError.unprocessable(`unknown merge style "${style}"`);
    body.default_merge_style = style as MergeStyle;
  }
  return body;
}

/** Gitea's access modes: the form sends 1/2/3 (or the names), the API the names. */
export function collaboratorMode(value: string | undefined): CollaboratorPermission {
  switch (value) {
    case '1': case 'read': return 'read';
    case '2': case 'write': return 'write';
    case '3': case 'admin': return 'admin';
    default: throw DomainError.unprocessable('mode must be read, write or admin');
  }
}

/** Names typed one per line or separated by commas (status check contexts, allow-listed users). */
export function nameList(value: string | undefined): string[] {
  return (value ?? '').split(/[\n,]+/).map((s) => s.trim()).filter((s) => s.length > 0);
}

const PUSH_MODES = ['none', 'all', 'whitelist'] as const;

/** `enable_push`: `none` (nobody), `all` (anyone with write), `whitelist` (only `whitelist_users`). */
export function branchProtectionFromForm(form: Record<string, string>): CreateBranchProtectionBody {
  const push = form.enable_push ?? 'none';
  if (!(PUSH_MODES as readonly string[]).includes(push)) throw DomainError.unprocessable('enable_push must be none, all or whitelist');
  const approvals = (form.required_approvals ?? '0').trim() || '0';
  if (!/^\d{1,4}$/.test(approvals)) throw DomainError.unprocessable('required approvals must be a number from 0');
  return {
    rule_name: (form.rule_name ?? '').trim(),
    enable_push: push !== 'none',
    enable_push_whitelist: push === 'whitelist',
    push_whitelist_usernames: push === 'whitelist' ? nameList(form.whitelist_users) : [],
    required_approvals: Number(approvals),
    enable_status_check: checked(form, 'enable_status_check'),
    status_check_contexts: checked(form, 'enable_status_check') ? nameList(form.status_check_contexts) : [],
    block_on_rejected_reviews: checked(form, 'block_on_rejected_reviews'),
    block_on_outdated_branch: checked(form, 'block_on_outdated_branch'),
    dismiss_stale_approvals: checked(form, 'dismiss_stale_approvals'),
    require_signed_commits: checked(form, 'require_signed_commits'),
    protected_file_patterns: (form.protected_file_patterns ?? '').trim(),
    unprotected_file_patterns: (form.unprotected_file_patterns ?? '').trim(),
  };
}

export function pushMode(rule: { enable_push: boolean; enable_push_whitelist: boolean }): (typeof PUSH_MODES)[number] {
  return !rule.enable_push ? 'none' : rule.enable_push_whitelist ? 'whitelist' : 'all';
}

/** Gitea's delete/transfer confirmation: the repository's name exactly, or a 422 shown inline. */
export function confirmTypedName(typed: string | undefined, expected: string): void {
  if ((typed ?? '').trim() !== expected) {
    throw DomainError.unprocessable(`the repository name you typed does not match "${expected}"`);
  }
}
