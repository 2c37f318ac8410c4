import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/api/app.ts';
import { catalogSources } from '../../src/catalog/catalog.ts';
import { landDemoFixtures } from '../helpers/demo-fixtures.ts';
import { rows } from '../helpers/home.ts';
import { openWarehouse, type Warehouse } from '../../src/db/warehouse.ts';
import { resolveHome } from '../../src/home.ts';
import { loadModels } from '../../src/models/load-models.ts';
import { runModels } from '../../src/models/run-models.ts';
import { publish } from '../../src/publish/publish.ts';

// The bundled demo files (fixtures/demo) built whole.
describe('every catalog table on the demo data', () => {
  let wh: Warehouse;
  let app: App;
  let key: string;
  let connections: string[];
  let clock = Date.parse('2026-11-22T10:00:00Z');

  beforeAll(async () => {
    const home = resolveHome(join(mkdtempSync(join(tmpdir(), 'mktdata-every-')), 'home'));
    wh = await openWarehouse(home, 'test', { create: true });
    ({ key } = await landDemoFixtures(wh));
    const failed = (await runModels(wh)).filter((r) => r.status !== 'success');
    expect(failed.map((r) => `${r.model}: ${r.error}`)).toEqual([]);
    await publish(wh);
    connections = (await wh.db.selectFrom('control.connections').select('id').execute()).map((c) => c.id);
    app = await buildApp({ wh, home, logger: false, now: () => clock });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await wh?.close();
  });

  it.each(catalogSources().map((s) => [s.tableName, s] as const))(
    '%s is non-empty and served by an export',
    async (tableName, source) => {
      clock += 1000;
      const period = source.requiresDatePeriod ? { from: '2020-01-01', to: '2030-12-31' } : {};
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/exports',
        headers: { 'service-api-key': key },
        payload: { sellerOrVendorIds: connections, tableName, ...period, outputType: 'PARQUET' },
      });
      expect(created.statusCode, created.body).toBe(202);
      await app.exportServices.worker.idle();
      const row = await wh.db
        .selectFrom('control.exports')
        .select(['status', 'row_count', 'error'])
        .where('id', '=', created.json().id)
        .executeTakeFirstOrThrow();
      expect(row.error).toBeNull();
      expect(row.status).toBe('COMPLETED');
      expect(Number(row.row_count)).toBeGreaterThan(0);
    },
  );

  // Spec documents 001 and 002: a column without `?` holds no null, unless its .yml's nullableNote says why the data
  // cannot.
  const tables = loadModels().filter((m) => m.config.catalog);
  it.each(tables.map((m) => [m.name, m] as const))(
    '%s has no null in a column marked not nullable without a note',
    async (tableName, model) => {
      const strict = model.config.columns.filter((c) => !c.nullable && !c.nullableNote).map((c) => c.name);
      const [nulls] = await rows(
        wh,
        `select ${strict.map((c) => `count(*) filter (where "${c}" is null)::int as "${c}"`).join(', ')} from marts.${tableName}`,
      );
      expect(Object.entries(nulls!).filter(([, n]) => n !== 0)).toEqual([]);
    },
  );
});
