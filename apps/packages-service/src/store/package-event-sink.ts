import type { PackageEventAction } from '@cairn/contracts';
import type { Tx } from '../prisma/prisma.service.js';

export const PACKAGE_EVENT_SINK = Symbol('PACKAGE_EVENT_SINK');

/** Declared here, implemented in `events/`: the store does not depend on the API views the events render. */
export interface PackageEventSink {
  record(tx: Tx, action: PackageEventAction, versionId: number, senderId: number | null): Promise<void>;
  kick(): void;
}
