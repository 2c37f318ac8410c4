import type { z } from 'zod';

type Json = Record<string, unknown>;
type Fields = Record<string, unknown>;

/**
 * A rule across the fields of a value, stated once: the check the server runs on the parsed details, and the JSON
 * Schema keywords that say the same of the input, so that the served schema refuses what the server refuses.
 */
export interface Rule<T = Fields> {
  holds(value: T): boolean;
  /** The message, at `path` under the value. */
  message: string;
  path?: string[];
  /** JSON Schema keywords equivalent to `holds`; none for a relation between values JSON Schema cannot state. */
  json?: Json;
  /** For a relation without `json`: the rule as a sentence, added to the schema's description. */
  says?: string;
}

const present = (v: Fields, field: string) => v[field] !== undefined;
const list = (fields: string[]) => `${fields.slice(0, -1).join(', ')} and ${fields.at(-1)}`;
const requires = (field: string) => ({ required: [field] });
/**
 * `prop` is given and one of `values`. An absent `prop` counts as not in `values`, so a rule on a field with a default
 * holds only while that default is not one of `values` (the server checks the parsed value, with its default).
 */
const isIn = (prop: string, values: unknown[]) => ({ properties: { [prop]: { enum: values } }, required: [prop] });

/** Exactly one of the fields is given. */
export const exactlyOne = (...fields: string[]): Rule => ({
  holds: (v) => fields.filter((f) => present(v, f)).length === 1,
  message: `give exactly one of ${list(fields)}`,
  json: { oneOf: fields.map(requires) },
});

/** At least one of the fields is given. */
export const atLeastOne = (fields: string[], message = `give at least one of ${list(fields)}`): Rule => ({
  holds: (v) => fields.some((f) => present(v, f)),
  message,
  json: { anyOf: fields.map(requires) },
});

/** At least one of the (zero or more, defaulting to 0) numbers is above 0. */
export const someAbove0 = (fields: string[], message: string): Rule => ({
  holds: (v) => fields.some((f) => (v[f] as number) > 0),
  message,
  json: { anyOf: fields.map((f) => ({ properties: { [f]: { exclusiveMinimum: 0 } }, required: [f] })) },
});

/** With `field` given, none of `others` is. */
export const alone = (field: string, others: string[], message: string, path?: string[]): Rule => ({
  holds: (v) => !present(v, field) || !others.some((o) => present(v, o)),
  message,
  ...(path ? { path } : {}),
  json: { if: requires(field), then: { not: { anyOf: others.map(requires) } } },
});

/** `field` is required when `prop` is one of `values`. */
export const requiredWhen = (field: string, prop: string, values: unknown[], message: string): Rule => ({
  holds: (v) => !values.includes(v[prop]) || present(v, field),
  message,
  path: [field],
  json: { if: isIn(prop, values), then: requires(field) },
});

/** `field` is allowed only when `prop` is one of `values`. */
export const onlyWhen = (field: string, prop: string, values: unknown[], message: string): Rule => ({
  holds: (v) => !present(v, field) || values.includes(v[prop]),
  message,
  path: [field],
  json: { if: requires(field), then: isIn(prop, values) },
});

/** `field` is required when `prop` is one of `values`, and not allowed otherwise. */
export const exactlyWhen = (field: string, prop: string, values: unknown[], message: string): Rule => ({
  holds: (v) => values.includes(v[prop]) === present(v, field),
  message,
  path: [field],
  json: { if: isIn(prop, values), then: requires(field), else: { not: requires(field) } },
});

/** `field` (a required string) matches `pattern` when `prop` is one of `values`. */
export const patternWhen = (
  field: string,
  pattern: RegExp,
  prop: string,
  values: unknown[],
  message: string,
): Rule => ({
  holds: (v) => !values.includes(v[prop]) || pattern.test(String(v[field])),
  message,
  path: [field],
  json: { if: isIn(prop, values), then: { properties: { [field]: { pattern: pattern.source } } } },
});

/** The strings of a list differ. */
export const distinct = (message: string): Rule<string[]> => ({
  holds: (v) => new Set(v).size === v.length,
  message,
  json: { uniqueItems: true },
});

/** An object has at least `n` fields (of those its strict schema allows). */
export const minFields = (n: number, message: string): Rule => ({
  holds: (v) => Object.keys(v).length >= n,
  message,
  json: { minProperties: n },
});

/**
 * A relation between values that JSON Schema cannot state (an order of dates or amounts, equal currencies, a field
 * unique across list items): checked by the server, said in the schema's description, its issue's code `relation`.
 */
export const relation = <T = Fields>(holds: (v: T) => boolean, says: string, message: string, path?: string[]) =>
  ({ holds, says, message, ...(path ? { path } : {}) }) as Rule<T>;

/**
 * The schema with its rules: each a refinement giving its issue, and all of them in the served JSON Schema (`allOf`,
 * after any the schema had; relations in its description).
 */
export function ruled<S extends z.ZodType>(schema: S, ...rules: Rule<z.output<S>>[]): S {
  const checked = rules.reduce(
    (s, r) =>
      s.refine((v) => r.holds(v), {
        message: r.message,
        ...(r.path ? { path: r.path } : {}),
        // a client that validated against the schema can tell these issues from those it should have caught
        ...(r.json ? {} : { params: { code: 'relation' } }),
      }),
    schema,
  );
  const prior = (checked.meta() ?? {}) as Json;
  const allOf = [...((prior.allOf as Json[] | undefined) ?? []), ...rules.flatMap((r) => (r.json ? [r.json] : []))];
  const says = rules.flatMap((r) => (r.says ? [`${r.says}.`] : []));
  const description = [prior.description, ...says].filter(Boolean).join(' ');
  return checked.meta({ ...(allOf.length > 0 ? { allOf } : {}), ...(description ? { description } : {}) });
}
