// Inputs generated from a JSON Schema and one valid example of it, for tests that compare the schema's verdict with
// another validator's: each is the example changed at one place (a field dropped, every field of an anyOf or oneOf
// dropped, a wrong type, another enum value, an optional field added, an array emptied or its first item repeated, an
// unknown field), found by walking the example beside the schema.
import type { Ajv2020 } from 'ajv/dist/2020.js';

/** A JSON Schema node, as far as the walk reads it. */
export type Schema = {
  $schema?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  minItems?: number;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  format?: string;
  pattern?: string;
  additionalProperties?: boolean | Schema;
  examples?: unknown[];
};
type Value = unknown;
type Obj = Record<string, Value>;
export interface Generated {
  what: string;
  details: Value;
}

const isObject = (v: Value): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const typesOf = (s: Schema) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
/** A value of another JSON type than the schema allows. */
const wrongType = (s: Schema): Value => (typesOf(s).includes('string') ? 12345 : 'not the right type');
const formats: Record<string, string> = {
  'date-time': '2025-03-01T12:00:00Z',
  date: '2025-03-01',
  uuid: '0b5c3b0e-4d8a-4c6e-9a36-2f1f7f0c1a55',
  email: 'buyer@example.com',
};

/** Every value inside the example (itself, its fields and items, recursively). */
function valuesIn(v: Value): Value[] {
  if (Array.isArray(v)) return [v, ...v.flatMap(valuesIn)];
  if (isObject(v)) return [v, ...Object.values(v).flatMap(valuesIn)];
  return [v];
}

/**
 * A value valid against `s`: one of the example's own values when one fits (patterns are not generated), else a
 * minimal one built from the schema; undefined when neither is found.
 */
function sample(ajv: Ajv2020, s: Schema, pool: Value[]): Value {
  const valid = (v: Value) => v !== undefined && ajv.validate(s, v);
  const found = pool.find(valid);
  if (found !== undefined) return found;
  const built = build(ajv, s, pool);
  return valid(built) ? built : undefined;
}

function build(ajv: Ajv2020, s: Schema, pool: Value[]): Value {
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const type = typesOf(s)[0];
  if (type === 'string') return s.format ? formats[s.format] : 'x'.repeat(Math.max(s.minLength ?? 1, 1));
  if (type === 'integer' || type === 'number') return Math.max(s.minimum ?? 1, (s.exclusiveMinimum ?? 0) + 1);
  if (type === 'boolean') return true;
  if (type === 'array' && s.items) {
    const item = sample(ajv, s.items, pool);
    return item === undefined ? undefined : Array.from({ length: Math.max(s.minItems ?? 1, 1) }, () => item);
  }
  if (type === 'object') {
    const entries = (s.required ?? []).map((k) => [k, sample(ajv, s.properties?.[k] ?? {}, pool)] as const);
    return entries.some(([, v]) => v === undefined) ? undefined : Object.fromEntries(entries);
  }
  return undefined;
}

/** The values an enum (or const) allows. */
function enumOf(s: Schema): unknown[] {
  return s.enum ?? (s.const !== undefined ? [s.const] : []);
}

/** The changes at one place of the example, each a new value for that place (undefined: the field left out). */
function changesAt(ajv: Ajv2020, s: Schema, v: Value, pool: Value[]): [string, Value][] {
  const changes: [string, Value][] = [['a wrong type', wrongType(s)]];
  for (const other of enumOf(s)) if (other !== v) changes.push([`${JSON.stringify(other)}`, other]);
  if (enumOf(s).length > 0) changes.push(['a value outside the enum', 'NOT_AN_ENUM_VALUE']);
  if (Array.isArray(v) && s.items) {
    changes.push(['emptied', []]);
    if (v.length > 0 && s.items.type !== 'object') changes.push(['its first item twice', [v[0], ...v]]);
  }
  if (isObject(v) && s.properties) {
    for (const key of Object.keys(v)) changes.push([`without ${key}`, withField(v, key, undefined)]);
    for (const [key, prop] of Object.entries(s.properties)) {
      if (key in v) continue;
      const added = sample(ajv, prop, pool);
      if (added !== undefined) changes.push([`with ${key}`, withField(v, key, added)]);
    }
    for (const rule of s.allOf ?? []) {
      const fields = [...(rule.anyOf ?? []), ...(rule.oneOf ?? [])].flatMap((r) => r.required ?? []);
      if (fields.length > 1)
        changes.push([
          `without ${fields.join(', ')}`,
          Object.fromEntries(Object.entries(v).filter(([k]) => !fields.includes(k))),
        ]);
    }
    changes.push(['with an unknown field', { ...v, notAField: 1 }]);
  }
  return changes;
}

function withField(o: Obj, key: string, value: Value): Obj {
  const { [key]: _, ...rest } = o;
  return value === undefined ? rest : { ...rest, [key]: value };
}

/** The example changed at one place, for every place the walk reaches (object fields and each array's first item). */
export function mutations(ajv: Ajv2020, schema: Schema, example: Value): Generated[] {
  const pool = valuesIn(example);
  const out: Generated[] = [];
  const walk = (s: Schema, v: Value, path: string, put: (x: Value) => Value) => {
    for (const [what, changed] of changesAt(ajv, s, v, pool))
      out.push({ what: `${path || 'details'} ${what}`, details: put(changed) });
    if (isObject(v) && s.properties)
      for (const [key, child] of Object.entries(v))
        if (s.properties[key]) walk(s.properties[key]!, child, `${path}.${key}`, (x) => put(withField(v, key, x)));
    if (Array.isArray(v) && s.items && v.length > 0) walk(s.items, v[0], `${path}[0]`, (x) => put([x, ...v.slice(1)]));
  };
  walk(schema, example, '', (x) => x);
  const seen = new Set<string>();
  return out.filter((g) => {
    const k = JSON.stringify(g.details);
    return g.details !== undefined && !seen.has(k) && (seen.add(k), true);
  });
}
