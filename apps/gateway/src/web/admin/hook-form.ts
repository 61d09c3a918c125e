import { DomainError, type CreateHookBody } from '@cairn/contracts';

/** The two kinds of admin hook: system hooks see every repository; default hooks are copied into new ones. */
export const ADMIN_HOOK_KINDS = ['system', 'default'] as const;
export type AdminHookKind = (typeof ADMIN_HOOK_KINDS)[number];

export function adminHookKind(value: string | undefined): AdminHookKind {
  if (value === 'system' || value === 'default') return value;
  throw DomainError.unprocessable('kind must be system or default');
}

/**
 * The "add webhook" form as the API's `CreateHookBody` (a Gitea-type hook). `events` is a comma- or space-separated
 * list of Gitea event names (or `*`); hooks-service checks the names, the URL and the content type, as for the API.
 */
export function hookBodyFromForm(form: Record<string, string>): CreateHookBody {
  const kind = adminHookKind(form.kind);
  const events = (form.events ?? '').split(/[\s,]+/).filter((e) => e.length > 0);
  const config: Record<string, unknown> = {
    url: (form.url ?? '').trim(),
    content_type: form.content_type ?? 'json',
    is_system_webhook: kind === 'system',
  };
  if (form.secret) config.secret = form.secret;
  const body: CreateHookBody = {
    type: 'gitea',
    config,
    events,
    branch_filter: (form.branch_filter ?? '').trim(),
    active: form.active === 'on',
  };
  if (form.authorization_header) body.authorization_header = form.authorization_header;
  return body;
}
