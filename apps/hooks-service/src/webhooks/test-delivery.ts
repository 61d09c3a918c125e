import type { HookDeliveryDto } from '@cairn/contracts';
import type { HookEventSpec } from '../payloads/event-map.js';
import type { MatchableHook } from './webhooks.repository.js';

export const TEST_DELIVERY = Symbol('TEST_DELIVERY');

/** Declared here, implemented in `deliveries/`: the hooks do not depend on their deliveries. */
export interface TestDelivery {
  /** The queued delivery, or null when the hook's type sends nothing for this event. */
  deliverTest(hook: MatchableHook, spec: HookEventSpec, repoId: number): Promise<HookDeliveryDto | null>;
}
