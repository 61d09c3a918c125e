import { getMetadataStorage } from 'class-validator';
import type { Type } from '@nestjs/common';

export type Schema = Record<string, unknown>;

const TYPE_BY_VALIDATOR: Record<string, Schema> = {
  isString: { type: 'string' },
  isInt: { type: 'integer', format: 'int64' },
  isNumber: { type: 'number' },
  isBoolean: { type: 'boolean' },
  isEmail: { type: 'string', format: 'email' },
  isDateString: { type: 'string', format: 'date-time' },
  isArray: { type: 'array', items: {} },
};

/** From class-validator metadata: our own bodies and queries are documented from the classes that validate them. */
export function schemaFromClass(target: Type<unknown>): { schema: Schema; required: string[] } {
  const metas = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  const props: Record<string, Schema> = {};
  const optional = new Set<string>();
  const seen = new Set<string>();
  for (const m of metas) {
    const name = m.propertyName;
    seen.add(name);
    const prop = (props[name] ??= {});
    const kind = m.name ?? m.type;
    if (m.type === 'conditionalValidation' || kind === 'isOptional') optional.add(name);
    const base = TYPE_BY_VALIDATOR[kind ?? ''];
    if (base) {
      if (m.each) {
        prop.type = 'array';
        prop.items = { ...base };
      } else if (!prop.type || prop.type === 'array') Object.assign(prop, base.type === 'array' ? { ...base, ...prop } : base);
    }
    if (kind === 'isIn' && Array.isArray(m.constraints?.[0])) {
      const values = m.constraints[0] as unknown[];
      if (m.each) prop.items = { type: 'string', enum: values };
      else Object.assign(prop, { type: prop.type ?? 'string', enum: values });
    }
    if (kind === 'maxLength' && typeof m.constraints?.[0] === 'number') prop.maxLength = m.constraints[0];
    if (kind === 'minLength' && typeof m.constraints?.[0] === 'number') prop.minLength = m.constraints[0];
    if (kind === 'min' && typeof m.constraints?.[0] === 'number') prop.minimum = m.constraints[0];
    if (kind === 'max' && typeof m.constraints?.[0] === 'number') prop.maximum = m.constraints[0];
  }
  const required = [...seen].filter((n) => !optional.has(n)).sort();
  const sorted = Object.fromEntries(Object.keys(props).sort().map((k) => [k, props[k]]));
  return { schema: { type: 'object', properties: sorted, ...(required.length ? { required } : {}) }, required };
}
