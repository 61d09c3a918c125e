export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');

export interface HealthCheck {
  name: string;
  check: () => Promise<boolean>;
}
