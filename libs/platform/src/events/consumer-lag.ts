import type { ConsumerInfo } from '@nats-io/jetstream';
import { consumerPending, onScrape } from '../metrics/cairn-metrics.js';

/**
 * Reports `cairn_jetstream_consumer_pending{consumer}` at each scrape: the stream messages the durable consumer
 * (its plain name, without the installation's namespace) has not been delivered yet. Returns a stopper.
 */
export function watchConsumerLag(consumer: string, info: () => Promise<ConsumerInfo>): () => void {
  return onScrape(consumerPending, async () => {
    consumerPending.set({ consumer }, (await info()).num_pending);
  });
}
