import { ServerNats, type NatsOptions } from '@nestjs/microservices';
import type { NatsConnection, SubscriptionOptions } from '@nats-io/transport-node';
import { NatsNamespace } from './nats-namespace.js';

/**
 * Nest's NATS server, subscribed in one installation's namespace. Handlers keep their plain patterns
 * (`@MessagePattern('identity.user.get')` is a static string); Nest's `bindEvents` subscribes each pattern with its
 * queue group, and here those two are mapped on their way to the connection. A message is still handled under its
 * plain pattern, so nothing else in Nest sees the namespace.
 */
export class NamespacedServerNats extends ServerNats {
  constructor(
    private readonly namespace: NatsNamespace,
    options: Required<NatsOptions>['options'],
  ) {
    super(options);
  }

  override bindEvents(client: NatsConnection): void {
    const ns = this.namespace;
    const scoped: Pick<NatsConnection, 'subscribe'> = {
      subscribe: (subject: string, opts?: SubscriptionOptions) =>
        client.subscribe(ns.subject(subject), { ...opts, queue: opts?.queue === undefined ? undefined : ns.name(opts.queue) }),
    };
    super.bindEvents(scoped);
  }
}
