import { parseNatsNamespace } from '../config/nats-namespace-setting.js';

export { parseNatsNamespace };

/** `a`: `identity.user.get` → `a.cairn.identity.user.get`; the `cairn` token keeps `a.cairn.*.evt.>` off the default `*.evt.>`. */
export class NatsNamespace {
  static readonly none = new NatsNamespace('');

  /** '' for the default installation. */
  readonly value: string;

  constructor(value: string) {
    this.value = parseNatsNamespace(value);
  }

  /** Wildcards are kept. */
  subject(subject: string): string {
    return this.value ? `${this.value}.${SUBJECT_MARKER}.${subject}` : subject;
  }

  name(name: string): string {
    return this.value ? `${this.value}_${name}` : name;
  }

  get label(): string {
    return this.value || 'default';
  }
}

const SUBJECT_MARKER = 'cairn';
