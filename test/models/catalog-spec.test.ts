import { describe, expect, it } from 'vitest';
import { catalogSources } from '../../src/catalog/catalog.ts';
import { loadModels, type Column } from '../../src/models/load-models.ts';
import { specTables, type SpecColumn } from '../helpers/spec-columns.ts';

/** Catalog tables the project adds beyond documents 001 and 002 (formula sources the spec names but does not list). */
const projectTables = ['mkt_ads_performance_by_asin_and_date', 'mkt_cogs', 'mkt_returns', 'mkt_settlements_with_cogs'];

const tables = loadModels().filter((m) => m.config.catalog);
const spec = specTables();

const show = (c: Pick<SpecColumn, 'name' | 'type' | 'nullable'> & { warehouseOnly?: boolean }) =>
  `${c.name} ${c.type}${c.nullable ? '?' : ''}${c.warehouseOnly ? ' (warehouse-integration only)' : ''}`;

/** Every difference between a table's `.yml` columns and the spec's list, one line each. */
function mismatches(table: string, yml: Column[], expected: SpecColumn[], complete: boolean): string[] {
  const names = yml.map((c) => c.name);
  const specNames = expected.map((c) => c.name);
  const compared = complete ? names : names.slice(0, specNames.length);
  if (compared.join() !== specNames.join()) {
    return [`${table}: columns ${compared.join(', ')}; spec lists ${specNames.join(', ')}`];
  }
  const problems = expected.flatMap((c, i) => {
    const got = yml[i]!;
    const same = got.type === c.type && got.nullable === c.nullable && Boolean(got.warehouseOnly) === c.warehouseOnly;
    return same ? [] : [`${table}: ${show(got)}; spec says ${show(c)}`];
  });
  // Columns the spec does not show are not warehouse-integration columns either.
  const unlisted = yml.slice(expected.length).filter((c) => c.warehouseOnly);
  return [...problems, ...unlisted.map((c) => `${table}: ${c.name} is warehouseOnly, the spec does not list it`)];
}

// Spec documents 001 and 002, "Resources and their fields": each table's "Columns:" list, C standing for the common
// columns.
describe('catalog columns against spec documents 001 and 002', () => {
  it('reads a column list for every catalog table but the project tables', () => {
    expect([...spec.keys()].sort()).toEqual(
      tables
        .map((t) => t.name)
        .filter((n) => !projectTables.includes(n))
        .sort(),
    );
  });

  it('gives every column the name, order, type, nullability and warehouse-only flag of the spec', () => {
    const common = spec.get('mkt_profit_by_sku_and_date')!.columns.slice(0, 6);
    const problems = tables.flatMap((t) => {
      const listed = spec.get(t.name);
      // Project tables: the spec's common columns C, then columns of the project's own.
      return listed
        ? mismatches(t.name, t.config.columns, listed.columns, listed.complete)
        : mismatches(t.name, t.config.columns, common, false);
    });
    expect(problems).toEqual([]);
  });

  it('explains nulls only on columns marked not nullable', () => {
    const explained = tables.flatMap((t) =>
      t.config.columns.filter((c) => c.nullableNote && c.nullable).map((c) => `${t.name}.${c.name}`),
    );
    expect(explained).toEqual([]);
  });

  it('keeps those notes out of the published catalog', () => {
    expect(
      catalogSources()
        .flatMap((s) => s.columns)
        .filter((c) => 'nullableNote' in c),
    ).toEqual([]);
  });

  it('marks exactly the columns the spec calls warehouse-integration only', () => {
    const flagged = [...spec].flatMap(([table, t]) =>
      t.columns.filter((c) => c.warehouseOnly).map((c) => `${table}.${c.name}`),
    );
    expect(flagged).toEqual([
      'mkt_listings_with_cogs.awd_expirations',
      'mkt_awd_inbound_shipment_line_items.line_item_data',
      'mkt_awd_replenishment_order_line_items.attributes',
      'mkt_awd_replenishment_order_line_items.line_item_data',
      'mkt_awd_outbound_shipment_packages.line_item_data',
    ]);
  });
});
