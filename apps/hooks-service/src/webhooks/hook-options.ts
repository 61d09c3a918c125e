import { DomainError, HOOK_CONTENT_TYPES, HOOK_TYPES, type CreateHookBody, type EditHookBody } from '@cairn/contracts';
import { GlobSyntaxError, validateBranchFilter } from './branch-filter.js';
import { parseEvents, UnknownEventError, type HookEventSelection } from './hook-events.js';

/** `strconv.ParseBool` forms Gitea accepts for `config.is_system_webhook`. */
const TRUE_FORMS = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const FALSE_FORMS = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/** `is_system_webhook`: a JSON boolean or Gitea's string forms; absent or empty = false (a default hook). */
export function parseIsSystemWebhook(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    if (TRUE_FORMS.includes(value)) return true;
    if (FALSE_FORMS.includes(value)) return false;
  }
  throw DomainError.unprocessable('Invalid is_system_webhook value');
}

/** An absolute http(s) URL with a host and a valid port (Gitea #34492), else 422 "Invalid url". */
export function validateHookUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw DomainError.unprocessable('Invalid url');
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) throw DomainError.unprocessable('Invalid url');
  return value;
}

/** Type-specific settings kept in `meta` and echoed in `config`. */
const META_KEYS: Record<string, readonly string[]> = {
  slack: ['channel', 'username', 'icon_url', 'color'],
  discord: ['username', 'icon_url'],
  matrix: ['message_type'],
  packagist: ['package_url'],
};

function configStrings(config: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) {
    if (k === 'is_system_webhook') continue;
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw DomainError.unprocessable(`config.${k} must be a string`);
    out[k] = v;
  }
  return out;
}

function checkContentType(ct: string): 'json' | 'form' {
  if (!(HOOK_CONTENT_TYPES as readonly string[]).includes(ct)) throw DomainError.unprocessable('Invalid content type');
  return ct as 'json' | 'form';
}

function checkBranchFilter(filter: string): string {
  try {
    validateBranchFilter(filter);
  } catch (err) {
    if (err instanceof GlobSyntaxError) throw DomainError.unprocessable(`Invalid branch_filter glob: ${err.message}`);
    throw err;
  }
  return filter;
}

function checkEvents(events: string[] | undefined): HookEventSelection {
  try {
    return parseEvents(events);
  } catch (err) {
    if (err instanceof UnknownEventError) throw DomainError.unprocessable(err.message);
    throw err;
  }
}

function slackChannel(raw: string | undefined, required: boolean): string | undefined {
  if (raw === undefined) {
    if (required) throw DomainError.unprocessable('Missing config option: channel');
    return undefined;
  }
  const channel = raw.trim();
  if (channel === '' || channel === '#') throw DomainError.invalid('Invalid slack channel name');
  return channel;
}

function metaFrom(type: string, config: Record<string, string>, base: Record<string, string>, create: boolean) {
  const keys = META_KEYS[type] ?? [];
  const meta = { ...base };
  if (type === 'slack') {
    const channel = slackChannel(config.channel, create);
    // As Gitea: the Slack settings change together, and only when `channel` is sent.
    if (channel === undefined) return meta;
    for (const k of keys) meta[k] = k === 'channel' ? channel : (config[k] ?? '');
    return meta;
  }
  for (const k of keys) if (config[k] !== undefined) meta[k] = config[k];
  return meta;
}

/** A validated hook, ready to store (secrets still in clear text: the service seals them). */
export interface HookFields {
  type: string;
  url: string;
  contentType: 'json' | 'form';
  secret?: string;
  authorizationHeader?: string;
  events: string[];
  sendEverything: boolean;
  branchFilter: string;
  meta: Record<string, string>;
  isActive: boolean;
  isSystemWebhook: boolean;
}

/** Gitea's `checkCreateHookOption` and `addHook` rules, with 422 messages as Gitea words them. */
export function checkCreateHook(body: CreateHookBody, admin: boolean): HookFields {
  if (!(HOOK_TYPES as readonly string[]).includes(body.type)) {
    throw DomainError.unprocessable(`Invalid hook type: ${body.type}`);
  }
  const isSystemWebhook = admin ? parseIsSystemWebhook(body.config.is_system_webhook) : false;
  const config = configStrings(body.config);
  for (const name of ['url', 'content_type']) {
    if (config[name] === undefined) throw DomainError.unprocessable(`Missing config option: ${name}`);
  }
  const contentType = checkContentType(config.content_type);
  const url = validateHookUrl(config.url);
  const selection = checkEvents(body.events);
  return {
    type: body.type,
    url,
    contentType,
    secret: config.secret || undefined,
    authorizationHeader: body.authorization_header || undefined,
    events: selection.events,
    sendEverything: selection.sendEverything,
    branchFilter: checkBranchFilter(body.branch_filter ?? ''),
    meta: metaFrom(body.type, config, {}, true),
    isActive: body.active ?? false,
    isSystemWebhook,
  };
}

/** The changes of a PATCH: only what was sent (the kind and type of a hook never change). */
export interface HookChanges {
  url?: string;
  contentType?: 'json' | 'form';
  secret?: string | null;
  authorizationHeader?: string | null;
  events?: string[];
  sendEverything?: boolean;
  branchFilter?: string;
  meta?: Record<string, string>;
  isActive?: boolean;
}

export function checkEditHook(body: EditHookBody, type: string, currentMeta: Record<string, string>): HookChanges {
  const changes: HookChanges = {};
  if (body.config) {
    const config = configStrings(body.config);
    if (config.url !== undefined) changes.url = validateHookUrl(config.url);
    if (config.content_type !== undefined) changes.contentType = checkContentType(config.content_type);
    if (config.secret !== undefined) changes.secret = config.secret || null;
    const meta = metaFrom(type, config, currentMeta, false);
    if (JSON.stringify(meta) !== JSON.stringify(currentMeta)) changes.meta = meta;
  }
  if (body.events !== undefined) {
    const selection = checkEvents(body.events);
    changes.events = selection.events;
    changes.sendEverything = selection.sendEverything;
  }
  if (body.branch_filter !== undefined) changes.branchFilter = checkBranchFilter(body.branch_filter);
  if (body.authorization_header !== undefined) changes.authorizationHeader = body.authorization_header || null;
  if (body.active !== undefined) changes.isActive = body.active;
  return changes;
}
