export interface HealthReply {
  service: string;
  ok: boolean;
  checks: Record<string, boolean>;
}

export type HealthRequest = Record<string, never>;

export function healthSubject<S extends string>(service: S): `${S}.health.check` {
  return `${service}.health.check`;
}
