import { parseNatsNamespace } from '../config/nats-namespace-setting.js';

export { parseNatsNamespace };

/**
 * Several Cairn installations (or a test run beside a running suite) may share one NATS server. Each gets its own
 * namespace (`[nats] NAMESPACE`), and this is the one place that turns Cairn's fixed NATS names into the names of an
 * installation. The empty namespace is the default and changes nothing, so existing deployments keep their names.
 *
 * With namespace `a`:
 *   - subjects (request-reply, health, events, stream subjects, consumer filters): `identity.user.get` becomes
 *     `a.cairn.identity.user.get`;
 *   - names (queue groups, the events stream, durable consumers): `identity-service` becomes `a_identity-service`,
 *     `CAIRN_EVENTS` becomes `a_CAIRN_EVENTS`.
 * The fixed second token keeps a namespace's stream subjects (`a.cairn.*.evt.>`) apart from the default stream's
 * `*.evt.>`: NATS refuses to create a stream whose subjects overlap another's, and `a.*.evt.>` would overlap it.
 */
export class NatsNamespace {
  /** The default installation: every name as it is. */
  static readonly none = new NatsNamespace('');

  /** The namespace itself ('' for the default installation). */
  readonly value: string;

  constructor(value: string) {
    this.value = parseNatsNamespace(value);
  }

  /** A subject or subject pattern (wildcards are kept) of this installation. */
  subject(subject: string): string {
    return this.value ? `${this.value}.${SUBJECT_MARKER}.${subject}` : subject;
  }

  /** A queue group, stream or durable consumer name of this installation. */
  name(name: string): string {
    return this.value ? `${this.value}_${name}` : name;
  }

  /** How people and folders call this installation: the namespace, or `default`. */
  get label(): string {
    return this.value || 'default';
  }
}

/** The token after the namespace in every namespaced subject (see {@link NatsNamespace}). */
const SUBJECT_MARKER = 'cairn';
