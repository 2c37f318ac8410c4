// The marketplace's published API models (contracts/models, Swagger 2.0) as checks: which operation a request is,
// whether the request is one the model allows (path, method, query parameters, headers, body), and whether the
// answer is one the model declares (status, body). Validation is ajv's, on the models' own schemas.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv as Ajv07 } from 'ajv';
import ajvDraft04, { type ValidateFunction } from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import type { Exchange } from '../../src/request-log.ts';

export const contractsDir = fileURLToPath(new URL('../../contracts/', import.meta.url));

type Schema = Record<string, unknown>;
interface Parameter extends Schema {
  name: string;
  in: 'path' | 'query' | 'header' | 'body' | 'formData';
  required?: boolean;
  schema?: Schema;
  collectionFormat?: string;
}
/** One operation of a model: where it is, what it takes, what it answers. */
export interface ModelOperation {
  model: string;
  operationId: string;
  method: string;
  path: string;
  pattern: RegExp;
  parameters: Parameter[];
  responses: Record<string, { schema?: Schema }>;
}

// Both are CommonJS modules whose default export is on `.default` under Node's ESM rules.
const Ajv = ajvDraft04.default;
const addFormats = ajvFormats.default;

function newAjv() {
  // The models use Swagger's numeric formats and extensions (x-…, discriminator as a name, example): known formats
  // are checked, the rest is annotation.
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password', 'ip'])
    ajv.addFormat(format, true);
  return ajv;
}
const ajv = newAjv();

/** `$ref: '#/definitions/X'` inside a model, made to point into that model's registered copy. */
function anchored(schema: unknown, model: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => anchored(s, model));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${model}${v}` : anchored(v, model),
    ]),
  );
}

const models = new Map<string, Schema>();
const operations: ModelOperation[] = [];
for (const folder of readdirSync(join(contractsDir, 'models'))) {
  for (const file of readdirSync(join(contractsDir, 'models', folder))) {
    const model = `${folder}/${file}`;
    const doc = JSON.parse(readFileSync(join(contractsDir, 'models', folder, file), 'utf8')) as {
      paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[]; responses: never }>>;
    };
    models.set(model, doc);
    ajv.addSchema(doc, model);
    for (const [path, item] of Object.entries(doc.paths)) {
      const shared = (item.parameters ?? []) as unknown as Parameter[];
      for (const [method, op] of Object.entries(item)) {
        if (method === 'parameters') continue;
        operations.push({
          model,
          operationId: op.operationId,
          method: method.toUpperCase(),
          path,
          pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '([^/]+)')}$`),
          parameters: [...shared, ...(op.parameters ?? [])],
          responses: op.responses,
        });
      }
    }
  }
}

/** Every operation of the copied models. */
export const modelOperations: readonly ModelOperation[] = operations;

/** The model operation a request is, by method and path (percent-encoded, as sent). */
export function operationOf(method: string, path: string): ModelOperation | undefined {
  return operations.find((o) => o.method === method && o.pattern.test(path));
}

const compiled = new Map<unknown, ValidateFunction>();
function validator(schema: Schema, model: string): ValidateFunction {
  const known = compiled.get(schema);
  if (known) return known;
  const v = ajv.compile(anchored(schema, model) as Schema);
  compiled.set(schema, v);
  return v;
}
const errorsOf = (v: ValidateFunction) =>
  (v.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );

/** A parameter's schema (Swagger puts it on the parameter itself), for a value read from a string. */
function parameterSchema(p: Parameter): Schema {
  const { name: _n, in: _i, required: _r, description: _d, collectionFormat: _c, ...schema } = p;
  return schema;
}

/** A query or path value as the model types it: lists split by their collection format, numbers and booleans read. */
function typed(p: Parameter, values: string[]): unknown {
  const read = (type: unknown, v: string) =>
    type === 'integer' || type === 'number'
      ? v === '' || Number.isNaN(Number(v))
        ? v
        : Number(v)
      : type === 'boolean'
        ? v === 'true'
          ? true
          : v === 'false'
            ? false
            : v
        : v;
  if (p.type === 'array') {
    const items = (p.items ?? {}) as Schema;
    const split =
      p.collectionFormat === 'multi'
        ? values
        : values.flatMap((v) => v.split(p.collectionFormat === 'pipes' ? '|' : ','));
    return split.map((v) => read(items.type, v));
  }
  return values.length === 1 ? read(p.type, values[0]!) : values;
}

/** What in a request the model does not allow, one line each (empty when it is a request the model describes). */
export function requestViolations(op: ModelOperation, exchange: Exchange): string[] {
  const out: string[] = [];
  const check = (what: string, value: unknown, schema: Schema) => {
    const v = validator(schema, op.model);
    if (!v(value)) out.push(...errorsOf(v).map((e) => `${what}: ${e}`));
  };
  const captured = op.pattern.exec(exchange.path)!.slice(1).map(decodeURIComponent);
  const pathNames = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const query = new Map<string, string[]>();
  for (const [k, v] of exchange.query) query.set(k, [...(query.get(k) ?? []), v]);
  for (const p of op.parameters) {
    if (p.in === 'path')
      check(`path parameter ${p.name}`, typed(p, [captured[pathNames.indexOf(p.name)]!]), parameterSchema(p));
    else if (p.in === 'query') {
      const values = query.get(p.name);
      if (values) check(`query parameter ${p.name}`, typed(p, values), parameterSchema(p));
      else if (p.required) out.push(`query parameter ${p.name}: required, not sent`);
    } else if (p.in === 'header') {
      const value = exchange.headers[p.name.toLowerCase()];
      if (value !== undefined) check(`header ${p.name}`, value, parameterSchema(p));
      else if (p.required) out.push(`header ${p.name}: required, not sent`);
    } else if (p.in === 'body') {
      if (exchange.body === undefined || exchange.body === null) {
        if (p.required) out.push('body: required, not sent');
      } else {
        if (!/^application\/json\b/.test(exchange.headers['content-type'] ?? ''))
          out.push(
            `body: sent as ${exchange.headers['content-type'] ?? 'no content type'}, the model consumes application/json`,
          );
        check('body', exchange.body, p.schema ?? {});
      }
    }
  }
  const known = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const name of query.keys()) if (!known.has(name)) out.push(`query parameter ${name}: not in the model`);
  if (!exchange.headers['x-amz-access-token']) out.push('header x-amz-access-token: not sent');
  return out;
}

/** What in an answer the model does not declare: its status, or its body against that status's schema. */
export function responseViolations(op: ModelOperation, response: Exchange['response']): string[] {
  const declared = op.responses[String(response.status)] ?? op.responses.default;
  if (!declared) return [`status ${response.status}: not among the model's (${Object.keys(op.responses).join(', ')})`];
  if (!declared.schema) return [];
  const v = validator(declared.schema, op.model);
  return v(response.body) ? [] : errorsOf(v).map((e) => `${response.status} body ${e}`);
}

/** A report schema of contracts/schemas/reports (JSON Schema draft-07) as a check of a document. */
export function reportSchema(file: string): (document: unknown) => string[] {
  const reports = new Ajv07({ strict: false, allErrors: true });
  addFormats(reports);
  const v = reports.compile(JSON.parse(readFileSync(join(contractsDir, 'schemas', 'reports', file), 'utf8')) as Schema);
  return (document) => (v(document) ? [] : errorsOf(v as ValidateFunction));
}
