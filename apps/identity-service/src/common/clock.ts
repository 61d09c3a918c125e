/** Injection token of the clock (ms since the epoch) used by throttles and TOTP checks; tests replace it. */
export const CLOCK = Symbol('CLOCK');
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();
