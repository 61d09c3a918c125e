import type { PackageEventAction } from '@cairn/contracts';
import type { Tx } from '../prisma/prisma.service.js';

/** Injection token of the {@link PackageEventSink} (implemented by `events/PackageEventRecorder`). */
export const PACKAGE_EVENT_SINK = Symbol('PACKAGE_EVENT_SINK');

/**
 * Where the store records Gitea's `package` events, inside the transaction of the change. Declared here and
 * implemented in `events/`, so the store does not depend on the API views the events render.
 */
export interface PackageEventSink {
  record(tx: Tx, action: PackageEventAction, versionId: number, senderId: number | null): Promise<void>;
  /** Publishes recorded events now (after the transaction committed). */
  kick(): void;
}
