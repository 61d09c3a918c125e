/** Gitea's query booleans (`strconv.ParseBool`): `1 t T TRUE true True` / `0 f F FALSE false False`. */
export function queryBool({ value }: { value: unknown }): unknown {
  if (typeof value !== 'string') return value;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return value;
}
