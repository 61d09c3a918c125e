/** Injection token of the service's {@link HealthCheck}s (provided by `PlatformModule`, read by the ops endpoint). */
export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

/** A named dependency check reported by the health subject. */
export interface HealthCheck {
  name: string;
  check: () => Promise<boolean>;
}
