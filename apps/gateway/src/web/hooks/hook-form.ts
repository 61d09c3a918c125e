import { DomainError, HOOK_EVENT_KEYS, type CreateHookBody, type EditHookBody, type HookDto } from '@cairn/contracts';

/** The two kinds of admin hook: system hooks see every repository; default hooks are copied into new ones. */
export const ADMIN_HOOK_KINDS = ['system', 'default'] as const;
export type AdminHookKind = (typeof ADMIN_HOOK_KINDS)[number];

export function adminHookKind(value: string | undefined): AdminHookKind {
  if (value === 'system' || value === 'default') return value;
  throw DomainError.unprocessable('kind must be system or default');
}

export const HOOK_EVENT_CHOICES = ['push_only', 'send_everything', 'choose_events'] as const;
export type HookEventChoice = (typeof HOOK_EVENT_CHOICES)[number];

/** Checking `issues` or `pull_request` means that event alone, as on Gitea's form (API: `issues_only`, …). */
export const HOOK_EVENT_CHECKBOXES = HOOK_EVENT_KEYS.map((key) => ({ key, label: key.replaceAll('_', ' ') }));
const ONLY: Partial<Record<string, string>> = { issues: 'issues_only', pull_request: 'pull_request_only' };

export interface HookFormValues {
  payload_url: string;
  content_type: 'json' | 'form';
  events: HookEventChoice;
  checked: string[];
  branch_filter: string;
  active: boolean;
  /** The hook already has a secret / authorization header: the fields may stay empty to keep them. */
  hasSecret?: boolean;
}

export const NEW_HOOK_VALUES: HookFormValues = {
  payload_url: '', content_type: 'json', events: 'push_only', checked: [], branch_filter: '', active: true,
};

export function hookFormValues(hook: HookDto): HookFormValues {
  const all = HOOK_EVENT_KEYS.every((k) => hook.events.includes(k));
  const pushOnly = hook.events.length === 1 && hook.events[0] === 'push';
  return {
    payload_url: hook.config.url ?? '',
    content_type: hook.config.content_type === 'form' ? 'form' : 'json',
    events: all ? 'send_everything' : pushOnly ? 'push_only' : 'choose_events',
    checked: hook.events,
    branch_filter: hook.branch_filter,
    active: hook.active,
    hasSecret: true,
  };
}

/** What was typed, to show the form again after a refusal (secrets are never echoed back). */
export function typedHookValues(form: Record<string, string>): HookFormValues {
  return {
    payload_url: form.payload_url ?? '',
    content_type: form.content_type === 'form' ? 'form' : 'json',
    events: eventChoice(form.events),
    checked: HOOK_EVENT_KEYS.filter((k) => form[k] === 'on'),
    branch_filter: form.branch_filter ?? '',
    active: form.active === 'on',
  };
}

function eventChoice(value: string | undefined): HookEventChoice {
  return (HOOK_EVENT_CHOICES as readonly string[]).includes(value ?? '') ? (value as HookEventChoice) : 'push_only';
}

/** The API's `events` list for the form's choice; hooks-service checks the names as for the API. */
export function hookEventsFromForm(form: Record<string, string>): string[] {
  const choice = eventChoice(form.events);
  if (choice === 'send_everything') return ['*'];
  if (choice === 'push_only') return ['push'];
  const chosen = HOOK_EVENT_KEYS.filter((k) => form[k] === 'on').map((k) => ONLY[k] ?? k);
  if (chosen.length === 0) throw DomainError.unprocessable('choose at least one event');
  return chosen;
}

/** One form for system, default, organization and repository hooks; `extraConfig` carries `is_system_webhook`. */
export function createHookBody(form: Record<string, string>, extraConfig: Record<string, unknown> = {}): CreateHookBody {
  return { type: 'gitea', ...hookFields(form, extraConfig) };
}

/** The edit form as `EditHookBody`: an empty secret or authorization header keeps the stored one. */
export function editHookBody(form: Record<string, string>): EditHookBody {
  return hookFields(form, {});
}

function hookFields(form: Record<string, string>, extraConfig: Record<string, unknown>) {
  const config: Record<string, unknown> = {
    url: (form.payload_url ?? '').trim(),
    content_type: form.content_type ?? 'json',
    ...extraConfig,
  };
  if (form.secret) config.secret = form.secret;
  return {
    config,
    events: hookEventsFromForm(form),
    branch_filter: (form.branch_filter ?? '').trim(),
    active: form.active === 'on',
    ...(form.authorization_header ? { authorization_header: form.authorization_header } : {}),
  };
}

/** Headers (already masked by hooks-service) and body as one readable block. */
export function httpMessageText(headers: Record<string, string> | null, body: string): string {
  const lines = Object.entries(headers ?? {}).map(([name, value]) => `${name}: ${value}`);
  return `${lines.join('\n')}\n\n${body}`;
}
