const MAX_LENGTH = 32;

/** One NATS subject token that is also a valid stream/consumer name: letters, digits, `-`, `_`, at most 32. */
export function parseNatsNamespace(raw: string): string {
  const value = raw.trim();
  if (value === '') return '';
  if (value.length > MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(value)) {
    throw new Error(
      `expected at most ${MAX_LENGTH} letters, digits, "-" or "_" (one NATS subject token: no spaces, dots, "*" or ">")`,
    );
  }
  return value;
}
