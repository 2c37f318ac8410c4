import { MktdataError } from '../errors.ts';
import type { Model } from './load-models.ts';
import type { ColumnCheck, ModelCheck } from './model-config.ts';

/**
 * What a reader needs to trust a model: what it reads and who reads it, its grain, the rules it implements and its
 * checks.
 */
export interface Lineage {
  id: string;
  materialized: string;
  grain: string;
  reads: string[];
  readBy: string[];
  /** Every model it is built from, directly or not. */
  upstream: string[];
  rules: { rule: string; in: string }[];
  checks: string[];
}

/** One check as a line: `not_null(profit)`, `unique(seller_or_vendor_id, date)`, `expression: …`. */
function columnCheckText(column: string, check: ColumnCheck): string {
  if (typeof check === 'string') return `${check}(${column})`;
  if ('accepted_values' in check) return `accepted_values(${column}: ${check.accepted_values.values.join(', ')})`;
  if ('relationships' in check)
    return `relationships(${column} → ${check.relationships.to}.${check.relationships.field})`;
  return `expression(${column}): ${check.expression.sql}`;
}

function modelCheckText(check: ModelCheck): string {
  if ('unique' in check) return `unique(${check.unique.columns.join(', ')})`;
  return `expression: ${check.expression.description ?? check.expression.sql.trim().split('\n')[0]}`;
}

/** The lineage of a model, by name (`mkt_profit_by_date`) or id (`marts.mkt_profit_by_date`). */
export function lineage(models: Model[], name: string): Lineage {
  const model = models.find((m) => m.id === name || m.name === name);
  if (!model) throw new MktdataError('ERR_MODEL_UNKNOWN', { name });
  const byId = new Map(models.map((m) => [m.id, m]));
  const upstream = new Set<string>();
  const walk = (id: string) => byId.get(id)!.deps.forEach((dep) => upstream.has(dep) || (upstream.add(dep), walk(dep)));
  walk(model.id);
  return {
    id: model.id,
    materialized: model.config.materialized,
    grain: model.config.grain,
    reads: model.deps,
    readBy: models.filter((m) => m.deps.includes(model.id)).map((m) => m.id),
    upstream: models.filter((m) => upstream.has(m.id)).map((m) => m.id),
    rules: model.config.rules,
    checks: [
      ...model.config.columns.flatMap((c) => (c.checks ?? []).map((check) => columnCheckText(c.name, check))),
      ...model.config.checks.map(modelCheckText),
    ],
  };
}

/** A lineage as text, for `mktdata docs`. */
export function lineageText(l: Lineage): string {
  const list = (items: string[]) => (items.length === 0 ? ['  (none)'] : items.map((i) => `  ${i}`));
  return [
    `${l.id} (${l.materialized})`,
    `grain: ${l.grain}`,
    'reads:',
    ...list(l.reads),
    'read by:',
    ...list(l.readBy),
    'rules (and the model where each lives):',
    ...list(l.rules.map((r) => `${r.rule}  → ${r.in}`)),
    `checks (${l.checks.length}):`,
    ...list(l.checks),
  ].join('\n');
}
