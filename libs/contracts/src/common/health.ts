/** What every service's health subject replies. */
export interface HealthReply {
  service: string;
  ok: boolean;
  /** Per dependency: true when it answered. */
  checks: Record<string, boolean>;
}

/** What a health subject is sent: nothing. */
export type HealthRequest = Record<string, never>;

/** The health-check subject of a service (`<service>.health.check`). */
export function healthSubject<S extends string>(service: S): `${S}.health.check` {
  return `${service}.health.check`;
}
