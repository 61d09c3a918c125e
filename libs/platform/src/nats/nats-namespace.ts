import { parseNatsNamespace } from '../config/nats-namespace-setting.js';

export { parseNatsNamespace };

/**
 * Turns Cairn's fixed NATS names into one installation's (`[nats] NAMESPACE`), so several can share a server; the
 * empty namespace changes nothing. With `a`: `identity.user.get` → `a.cairn.identity.user.get`, `identity-service`
 * → `a_identity-service`. The fixed `cairn` token keeps `a.cairn.*.evt.>` from overlapping the default stream's
 * `*.evt.>` (NATS refuses overlapping streams).
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
