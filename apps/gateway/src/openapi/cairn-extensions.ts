import type { Schema } from './schema-from-class.js';

type Props = Record<string, Schema>;
const props = (s: Schema) => ((s.properties ??= {}) as Props);

/**
 * Where Cairn deliberately differs from or extends Gitea's description — each entry says why. Keeping them in one
 * place makes every deviation reviewable.
 */
export const CAIRN_EXTENSIONS: {
  definitions: Record<string, (s: Schema) => void>;
  operations: Record<string, (op: Record<string, unknown>) => void>;
} = {
  definitions: {
    // `null` until first use (Gitea reports created_at), so clients can tell unused credentials apart.
    AccessToken: (s) => {
      props(s).last_used_at = { type: 'string', format: 'date-time', 'x-nullable': true };
    },
    PublicKey: (s) => {
      props(s).last_used_at = { type: 'string', format: 'date-time', 'x-nullable': true };
    },
    // Gitea hides whether an admin hook is a system or a default hook.
    Hook: (s) => {
      props(s).is_system_webhook = { type: 'boolean' };
    },
    // GitHub's lock fields beside Gitea's `is_locked`, so Octokit clients read them.
    Issue: (s) => {
      props(s).locked = { type: 'boolean' };
      props(s).active_lock_reason = { type: 'string', 'x-nullable': true };
    },
    // Null in real answers (Go nil pointers): a blob over the size limit has no content, only files have encoding,
    // only symlinks a target, submodules no URLs.
    ContentsResponse: (s) => {
      for (const f of ['content', 'encoding', 'target', 'submodule_git_url', 'url', 'html_url', 'git_url', 'download_url']) {
        if (props(s)[f]) props(s)[f] = { ...props(s)[f], 'x-nullable': true };
      }
    },
    FileLinksResponse: (s) => {
      for (const f of ['git', 'html', 'self']) if (props(s)[f]) props(s)[f] = { ...props(s)[f], 'x-nullable': true };
    },
    // Mergeability as a state, not only a boolean: clients can tell "still checking" from "conflict".
    PullRequest: (s) => {
      props(s).mergeable_state = { type: 'string', enum: ['checking', 'mergeable', 'conflict', 'error'] };
      props(s).conflicted_files = { type: 'array', items: { type: 'string' } };
      props(s).locked = { type: 'boolean' };
      props(s).active_lock_reason = { type: 'string', 'x-nullable': true };
    },
  },
  operations: {},
};
