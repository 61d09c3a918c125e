/** What every service's health subject replies. */
export interface HealthReply {
  service: string;
  ok: boolean;
  /** Per dependency: true when it answered. */
  checks: Record<string, boolean>;
}

/** The health-check subject of a service (`<service>.health.check`). */
export function healthSubject(service: string): string {
  return `${service}.health.check`;
}
