import type { ConsumerInfo } from '@nats-io/jetstream';
import { consumerPending, onScrape } from '../metrics/cairn-metrics.js';

/** The consumer's plain name, without the installation's namespace. */
export function watchConsumerLag(consumer: string, info: () => Promise<ConsumerInfo>): () => void {
  return onScrape(consumerPending, async () => {
    consumerPending.set({ consumer }, (await info()).num_pending);
  });
}
