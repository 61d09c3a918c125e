import type { Schema } from './schema-from-class.js';

type Props = Record<string, Schema>;
const props = (s: Schema) => ((s.properties ??= {}) as Props);
/** Gitea encodes these from Go nil pointers: `null` in real answers, though its description does not say so. */
const nullable = (s: Schema, fields: string[]) => {
  for (const f of fields) if (props(s)[f]) props(s)[f] = { ...props(s)[f], 'x-nullable': true };
};

/** The four levels of the runner management routes (admin's legacy token path differs: see RUNNER_LEGACY_TOKEN). */
const RUNNER_BASES = ['/admin/actions/runners', '/user/actions/runners', '/orgs/{org}/actions/runners', '/repos/{owner}/{repo}/actions/runners'];
const RUNNER_LEGACY_TOKEN = ['/admin/runners/registration-token', ...RUNNER_BASES.slice(1).map((b) => `${b}/registration-token`)];
const RUNNER_LABELS = { $ref: '#/definitions/RunnerLabels' };
const RUNNER_TOKEN = { $ref: '#/definitions/RunnerRegistrationToken' };

/** Gitea declares the token as a response header; the real body is JSON `{"token": …}`, as Cairn documents. */
const tokenBody = (op: Record<string, unknown>) => {
  (op.responses as Record<string, unknown>)['200'] = { description: 'OK', schema: RUNNER_TOKEN };
};

const noSigningKey = (op: Record<string, unknown>) => {
  (op.responses as Record<string, unknown>)['404'] = { $ref: '#/responses/notFound' };
};
const nameTaken = (op: Record<string, unknown>) => {
  (op.responses as Record<string, unknown>)['409'] = { description: 'Conflict' };
};
const filesOrNull = (op: Record<string, unknown>) => {
  (op.responses as Record<string, unknown>)['200'] = {
    description: 'OK',
    schema: { type: 'array', items: { $ref: '#/definitions/ContentsResponse', 'x-nullable': true } },
  };
};
const refusesOwners = (op: Record<string, unknown>) => {
  (op.responses as Record<string, unknown>)['422'] = { $ref: '#/responses/validationError' };
};
const anyContentType = (op: Record<string, unknown>) => {
  op.produces = ['*/*'];
};

const runnerOperations = Object.fromEntries(
  RUNNER_BASES.flatMap((base) => [
    [`POST ${base}/registration-token`, tokenBody],
    [
      `GET ${base}`,
      (op: Record<string, unknown>) => {
        // Gitea reads `page` and `limit` here (utils.GetListOptions) but its description leaves them out.
        op.parameters = [
          ...((op.parameters as unknown[]) ?? []),
          { name: 'page', in: 'query', type: 'integer', description: 'page number of results to return (1-based)' },
          { name: 'limit', in: 'query', type: 'integer', description: 'page size of results (at most 50)' },
        ];
      },
    ],
    [
      `POST ${base}/registration-token/reset`,
      (op: Record<string, unknown>) => {
        op.summary = 'Reset the registration token of this level';
        op.description =
          'Cairn addition (Gitea resets in its web UI only): answers a new token; the older tokens of the level stop ' +
          'registering runners (runners already registered keep working).';
      },
    ],
  ]).concat(
    RUNNER_LEGACY_TOKEN.map((path) => [
      `GET ${path}`,
      (op: Record<string, unknown>) => {
        op.deprecated = true;
        op.description = 'Deprecated since Gitea 1.24 (removed in 1.26): use the POST form. Answers the same token.';
        tokenBody(op);
      },
    ]),
  ),
) as Record<string, (op: Record<string, unknown>) => void>;

const runnerResponses = Object.fromEntries(
  RUNNER_BASES.flatMap((base) => [
    [`POST ${base}/registration-token/reset`, RUNNER_TOKEN],
    [`GET ${base}/{runner_id}/labels`, RUNNER_LABELS],
    [`POST ${base}/{runner_id}/labels`, RUNNER_LABELS],
    [`PUT ${base}/{runner_id}/labels`, RUNNER_LABELS],
    [`DELETE ${base}/{runner_id}/labels`, RUNNER_LABELS],
    [`DELETE ${base}/{runner_id}/labels/{name}`, RUNNER_LABELS],
  ]),
) as Record<string, Schema>;

/** `/user/settings`: the success body is one `UserSettings` object (Gitea's description says an array of them). */
function userSettingsObject(op: Record<string, unknown>): void {
  (op.responses as Record<string, unknown>)['200'] = { description: 'OK', schema: { $ref: '#/definitions/UserSettings' } };
  op['x-cairn-differs'] = 'Gitea documents an array of UserSettings; Gitea and Cairn answer one object';
}

/** File writes: 409 for a stale `sha` or a branch that kept moving (see docs/architecture.md, contents write). */
function staleShaConflict(op: Record<string, unknown>): void {
  (op.responses as Record<string, unknown>)['409'] = {
    description: 'the file changed since the given sha (an earlier version of it), or the branch kept moving',
  };
  op['x-cairn-differs'] = 'Gitea answers 422 for any sha mismatch; Cairn keeps 422 for a sha naming no blob of the repository';
}

export const CAIRN_EXTENSIONS: {
  definitions: Record<string, (s: Schema) => void>;
  operations: Record<string, (op: Record<string, unknown>) => void>;
  ownDefinitions: Record<string, Schema>;
  /** The success body of each Cairn addition (routes Gitea lacks), by `METHOD /cairn/path`. */
  responses: Record<string, Schema>;
  /** Query values a handler reads outside its `@Query()` class, by `METHOD /cairn/path`. */
  queryReadElsewhere: Record<string, string[]>;
} = {
  definitions: {
    // When the runner last reported (null: never); Gitea keeps it to its web UI.
    ActionRunner: (s) => {
      props(s).last_online = {
        type: 'string', format: 'date-time', 'x-nullable': true,
        description: 'Cairn: when the runner last reported (null: never); online within [actions] RUNNER_OFFLINE_TIME',
      };
    },
    // `null` until first use (Gitea reports created_at), so clients can tell unused credentials apart.
    AccessToken: (s) => {
      props(s).last_used_at = { type: 'string', format: 'date-time', 'x-nullable': true };
    },
    // `verified`: the owner proved they hold the key (POST /user/ssh_key_verify); only such keys verify commits.
    PublicKey: (s) => {
      props(s).last_used_at = { type: 'string', format: 'date-time', 'x-nullable': true };
      props(s).verified = { type: 'boolean', description: 'The owner proved they hold the key (POST /user/ssh_key_verify)' };
    },
    // Null in real answers (Go nil pointers, as Gitea's `convert.ToAPIMilestone`): not closed, no due date.
    Milestone: (s) => {
      nullable(s, ['closed_at', 'due_on', 'updated_at']);
    },
    // Gitea hides whether an admin hook is a system or a default hook.
    Hook: (s) => {
      props(s).is_system_webhook = { type: 'boolean' };
    },
    // GitHub's lock fields beside Gitea's `is_locked`, so Octokit clients read them.
    Issue: (s) => {
      nullable(s, ['closed_at', 'due_date']);
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
    // The trust status Gitea computes for its web UI only, so API clients can tell a trusted signature from one that
    // merely verifies (trust models: CreateRepoOption/EditRepoOption `trust_model`).
    PayloadCommitVerification: (s) => {
      props(s).trust_status = {
        type: 'string',
        enum: ['trusted', 'untrusted', 'unmatched', ''],
        description: "Cairn: the verified signature's trust under the repository's trust model; empty when not verified",
      };
    },
    // Gitea sets the trust model on creation and in its web settings only; Cairn also takes it here.
    EditRepoOption: (s) => {
      props(s).trust_model = {
        type: 'string',
        enum: ['default', 'collaborator', 'committer', 'collaboratorcommitter'],
        description: 'Cairn: how signed commits are trusted (default: [repository.signing] DEFAULT_TRUST_MODEL)',
      };
    },
    // An organization owning a repository answers as its `owner` with the email it may not have (""), as in Gitea.
    User: (s) => {
      props(s).email = { type: 'string', description: 'empty for an organization without one' };
    },
    // Null until merged (a Go nil *time.Time), as in Gitea's answers.
    PullRequestMeta: (s) => {
      nullable(s, ['merged_at']);
    },
    // A commit's author and committer are what the commit says, not necessarily an email address.
    PayloadUser: (s) => {
      props(s).email = { type: 'string' };
    },
    // A commit without statuses has no combined state: Gitea answers "" (an empty CombinedStatus), so does Cairn.
    CombinedStatus: (s) => {
      props(s).state = { type: 'string', enum: ['pending', 'success', 'error', 'failure', 'warning', 'skipped', ''] };
    },
    // Mergeability as a state, not only a boolean: clients can tell "still checking" from "conflict".
    PullRequest: (s) => {
      nullable(s, ['closed_at', 'due_date', 'merged_at', 'merge_commit_sha']);
      props(s).mergeable_state = { type: 'string', enum: ['checking', 'mergeable', 'conflict', 'error'] };
      props(s).conflicted_files = { type: 'array', items: { type: 'string' } };
      props(s).locked = { type: 'boolean' };
      props(s).active_lock_reason = { type: 'string', 'x-nullable': true };
    },
  },
  operations: {
    ...runnerOperations,
    // Gitea documents an array here, but its handlers (and its Go SDK) answer one `UserSettings` object, as Cairn does.
    'GET /user/settings': userSettingsObject,
    'PATCH /user/settings': userSettingsObject,
    // Semantic-version order of a package's versions, beside Gitea's newest first.
    'GET /packages/{owner}/{type}/{name}': (op) => {
      op.parameters = [
        ...((op.parameters as unknown[]) ?? []),
        {
          name: 'sort', in: 'query', type: 'string', enum: ['created', 'semver'],
          description: 'Cairn: `semver` orders by semantic version, highest first (other versions after, newest first); default newest first',
        },
      ];
    },
    'GET /packages/{owner}/{type}/{name}/-/latest': (op) => {
      op.parameters = [
        ...((op.parameters as unknown[]) ?? []),
        {
          name: 'semver', in: 'query', type: 'boolean',
          description: 'Cairn: `true` answers the highest semantic version instead of the newest version',
        },
      ];
    },
    // Two-factor enrolment: Gitea has only web pages; Cairn's refusals under `TWO_FACTOR_AUTH = enforced` point here.
    'POST /user/2fa': (op) => {
      op.summary = 'Start two-factor (TOTP) enrolment';
      op.description =
        'Basic authentication with the password only (no token, no Sudo). Answers a new secret and its otpauth:// URI, ' +
        'shown once; nothing is active until POST /user/2fa/confirm. Starting again replaces a pending secret. 422 when ' +
        'already enrolled. Open to users who must enrol under [security] TWO_FACTOR_AUTH = enforced.';
    },
    'POST /user/2fa/confirm': (op) => {
      op.summary = 'Activate the pending two-factor enrolment with a current code';
      op.description =
        'Basic authentication with the password. Answers a one-time recovery code, shown once (stored hashed). From ' +
        'then on, Basic authentication with the password needs X-Gitea-OTP. 422 for a wrong code or no pending enrolment.';
    },
    // A name already taken is 409, as Gitea answers here and documents for POST /user/repos only.
    'POST /orgs/{org}/repos': nameTaken,
    'POST /org/{org}/repos': nameTaken,
    // A path that names nothing answers `null` in its place, as Gitea's GetContentsListFromTreePaths does.
    'GET /repos/{owner}/{repo}/file-contents': filesOrNull,
    'POST /repos/{owner}/{repo}/file-contents': filesOrNull,
    // The Owners team and an organization's last owner stay: Cairn refuses with 422 (Gitea's description lists none).
    'DELETE /teams/{id}': refusesOwners,
    'DELETE /teams/{id}/members/{username}': refusesOwners,
    // No signing key configured: 404, as Gitea answers (its description lists only the key).
    'GET /signing-key.gpg': noSigningKey,
    'GET /signing-key.pub': noSigningKey,
    // A file as stored, under the type its content is (`text/plain; charset=utf-8` for text), as Gitea serves it;
    // its description says `application/octet-stream` only.
    'GET /repos/{owner}/{repo}/raw/{filepath}': anyContentType,
    'GET /repos/{owner}/{repo}/media/{filepath}': anyContentType,
    // Gitea's description of this route lacks its body (`VerifyGPGKeyOption`) and says 201 where it answers 200.
    'POST /user/gpg_key_verify': (op) => {
      op.consumes = ['application/json'];
      op.parameters = [{ name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/VerifyGPGKeyOption' } }];
      op['x-cairn-differs'] = 'Gitea describes 201 but answers 200 (routers/api/v1/user/gpg_key.go), as Cairn does';
    },
    // SSH key ownership: Gitea verifies SSH keys in its web UI only; the API routes mirror the GPG ones.
    'GET /user/ssh_key_token': (op) => {
      op.summary = 'Get a token to sign with an SSH key (the same token as GET /user/gpg_key_token)';
      op.description =
        'Plain text. Sign it with `ssh-keygen -Y sign -n gitea -f <key>` and send the armored signature to ' +
        'POST /user/ssh_key_verify within about a minute (the token changes every minute; the previous one is accepted).';
      op.produces = ['text/plain'];
    },
    // Gitea routes GET /user/actions/secrets (its `addActionsRoutes` is shared by the three levels) but documents only
    // the organization and repository lists; Cairn answers it like them.
    'GET /user/actions/secrets': (op) => {
      op.summary = "List the caller's Actions secrets (names, descriptions and creation times; never values)";
      op.description = 'Paged with `page` and `limit`; the total is in `X-Total-Count`, as at the other levels.';
    },
    'POST /user/ssh_key_verify': (op) => {
      op.summary = 'Verify one of your SSH keys with a signature over the token';
      op.description =
        'Body `{key_id, signature}`: the key id of GET /user/keys and an armored `-----BEGIN SSH SIGNATURE-----` made ' +
        'by that key in namespace `gitea` over the token. Answers the key with `verified: true`; only verified SSH keys ' +
        'verify commit signatures. 404 for a key that is not yours, 422 for a signature that does not match.';
    },
    // A stale sha (an earlier blob of the file) is 409, as GitHub answers; Gitea says 422 for any mismatch.
    'PUT /repos/{owner}/{repo}/contents/{filepath}': staleShaConflict,
    'DELETE /repos/{owner}/{repo}/contents/{filepath}': staleShaConflict,
    'POST /repos/{owner}/{repo}/contents': staleShaConflict,
    'DELETE /user/2fa': (op) => {
      op.summary = 'Remove the two-factor enrolment (active or pending)';
      op.description = 'Basic authentication with the password and, when enrolled, a current code in X-Gitea-OTP.';
    },
  },
  ownDefinitions: {
    // `{"token": …}`: what Gitea's registration-token routes really answer (its description declares a header).
    RunnerRegistrationToken: {
      type: 'object',
      properties: { token: { type: 'string', description: 'registers runners of this level until reset' } },
      required: ['token'],
    },
    // GitHub's runner label list (`GET|POST|PUT|DELETE …/runners/{runner_id}/labels`), with Gitea's label objects.
    RunnerLabels: {
      type: 'object',
      properties: {
        total_count: { type: 'integer' },
        labels: { type: 'array', items: { $ref: '#/definitions/ActionRunnerLabel' } },
      },
      required: ['total_count', 'labels'],
    },
    // Gitea's `VerifyGPGKeyOption` (modules/structs), missing from its description.
    VerifyGPGKeyOption: {
      type: 'object',
      properties: {
        key_id: { type: 'string', description: 'The id of the key to verify (16 hex digits; leading zeros optional)' },
        armored_signature: { type: 'string', description: 'The armored detached signature over GET /user/gpg_key_token' },
      },
      required: ['key_id', 'armored_signature'],
    },
    // GitHub's `hook-delivery-item` plus Cairn's state and attempts (libs/contracts hooks/delivery.dto.ts).
    HookDelivery: {
      type: 'object',
      properties: {
        id: { type: 'integer', format: 'int64' },
        guid: { type: 'string' },
        delivered_at: { type: 'string', format: 'date-time' },
        redelivery: { type: 'boolean' },
        duration: { type: 'number' },
        status: { type: 'string' },
        status_code: { type: 'integer' },
        event: { type: 'string' },
        action: { type: 'string', 'x-nullable': true },
        installation_id: { type: 'integer', 'x-nullable': true },
        repository_id: { type: 'integer', format: 'int64', 'x-nullable': true },
        throttled_at: { type: 'string', format: 'date-time', 'x-nullable': true },
        hook_id: { type: 'integer', format: 'int64' },
        event_type: { type: 'string' },
        state: { type: 'string' },
        attempts: { type: 'integer' },
        next_attempt_at: { type: 'string', format: 'date-time', 'x-nullable': true },
      },
      required: ['id', 'guid', 'delivered_at', 'redelivery', 'status', 'status_code', 'event', 'hook_id', 'state'],
    },
    HookDeliveryAttempt: {
      type: 'object',
      properties: {
        number: { type: 'integer' },
        redelivery: { type: 'boolean' },
        delivered_at: { type: 'string', format: 'date-time' },
        duration: { type: 'number' },
        status: { type: 'string' },
        status_code: { type: 'integer' },
        outcome: { type: 'string', enum: ['delivered', 'retry', 'failed'] },
        error: { type: 'string', 'x-nullable': true },
        request: { type: 'object' },
        response: { type: 'object' },
      },
      required: ['number', 'outcome'],
    },
    // `POST /user/2fa` and `/user/2fa/confirm` (libs/contracts identity/two-factor.dto.ts).
    TwoFactorEnrolment: {
      type: 'object',
      properties: {
        secret: { type: 'string', description: 'TOTP secret, base32 without padding (shown once)' },
        otpauth_url: { type: 'string', description: 'otpauth://totp/… URI for authenticator apps (shown once)' },
      },
      required: ['secret', 'otpauth_url'],
    },
    TwoFactorRecovery: {
      type: 'object',
      properties: { scratch_token: { type: 'string', description: 'one-time recovery code (shown once)' } },
      required: ['scratch_token'],
    },
    // GitHub's `hook-delivery`: the item plus what was sent and received, and every attempt.
    HookDeliveryDetail: {
      type: 'object',
      allOf: [
        { $ref: '#/definitions/HookDelivery' },
        {
          type: 'object',
          properties: {
            url: { type: 'string' },
            request: { type: 'object' },
            response: { type: 'object' },
            attempt_log: { type: 'array', items: { $ref: '#/definitions/HookDeliveryAttempt' } },
          },
          required: ['url', 'request', 'response', 'attempt_log'],
        },
      ],
    },
  },
  responses: {
    ...runnerResponses,
    ...Object.fromEntries(
      ['/admin/hooks/{id}', '/orgs/{org}/hooks/{id}', '/repos/{owner}/{repo}/hooks/{id}'].flatMap((hook) => [
        [`GET ${hook}/deliveries`, { type: 'array', items: { $ref: '#/definitions/HookDelivery' } }],
        [`GET ${hook}/deliveries/{deliveryId}`, { $ref: '#/definitions/HookDeliveryDetail' }],
        [`POST ${hook}/deliveries/{deliveryId}/attempts`, { $ref: '#/definitions/HookDelivery' }],
      ]),
    ),
    'POST /user/2fa': { $ref: '#/definitions/TwoFactorEnrolment' },
    'GET /user/ssh_key_token': { type: 'string' },
    'GET /user/actions/secrets': { type: 'array', items: { $ref: '#/definitions/Secret' } },
    'POST /user/ssh_key_verify': { $ref: '#/definitions/PublicKey' },
    'POST /user/2fa/confirm': { $ref: '#/definitions/TwoFactorRecovery' },
  },
  queryReadElsewhere: {},
};
