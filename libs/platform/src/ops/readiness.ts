export interface ReadinessCheck {
  name: string;
  check: () => Promise<boolean>;
}

/** Parts add these for connections they open (BullMQ's Redis), so readiness follows what an app really uses. */
const registered = new Set<ReadinessCheck>();

export function registerReadinessCheck(name: string, check: () => Promise<boolean>): () => void {
  const entry = { name, check };
  registered.add(entry);
  return () => void registered.delete(entry);
}

/** Read at each `/readyz`, so parts opened later count too. */
export function registeredReadinessChecks(): ReadinessCheck[] {
  return [...registered];
}
