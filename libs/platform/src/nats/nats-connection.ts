/** Injection token of the service's one NATS connection (provided by `PlatformModule`). */
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
