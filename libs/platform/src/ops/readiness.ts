/** A dependency `/readyz` asks: true when it answers. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<boolean>;
}

/**
 * Checks that parts of the platform add for themselves when they open a connection the app depends on (a BullMQ
 * queue or worker's Redis), so an app's readiness follows what it really uses without each app listing it.
 */
const registered = new Set<ReadinessCheck>();

/** Adds a readiness check; returns a function that removes it (the part has closed). */
export function registerReadinessCheck(name: string, check: () => Promise<boolean>): () => void {
  const entry = { name, check };
  registered.add(entry);
  return () => void registered.delete(entry);
}

/** The checks registered so far (read at each `/readyz`, so parts opened later count too). */
export function registeredReadinessChecks(): ReadinessCheck[] {
  return [...registered];
}
