import type { HookDeliveryDto } from '@cairn/contracts';
import type { HookEventSpec } from '../payloads/event-map.js';
import type { MatchableHook } from './webhooks.repository.js';

/** Injection token of the {@link TestDelivery} (implemented by `deliveries/DispatchService`). */
export const TEST_DELIVERY = Symbol('TEST_DELIVERY');

/**
 * Sends one event to one hook at once (the "test delivery" of a hook). Declared here and implemented in
 * `deliveries/`, which builds on the hooks: the hooks do not depend on their deliveries.
 */
export interface TestDelivery {
  /** The queued delivery, or null when the hook's type sends nothing for this event. */
  deliverTest(hook: MatchableHook, spec: HookEventSpec, repoId: number): Promise<HookDeliveryDto | null>;
}
