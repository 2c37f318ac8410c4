import { RefusedFile, type Source } from '../../source.ts';
import { stagedBefore, stageFlatFile } from '../../flat-file.ts';
import { format } from './format.ts';
import { insertOrExplain } from '../../flat-values.ts';
import { cogsTable, landCogsSql } from '../../../control/cogs.ts';

/**
 * COGS CSV import: rows upsert into control.cogs on (asin, sku, costCurrency, fromDate);
 * within one file the last line of a key wins. Each row keeps the file and line it came from.
 */
export const source: Source = {
  name: 'cogs',
  table: cogsTable,
  createTable: 'select 1', // created by the control-plane migrations
  stage: (ctx) => stageFlatFile(ctx, format, 'cp1252'),
  async land(ctx, staged = stagedBefore()) {
    const col = (name: string) => staged.present.get(name) ?? 'null';
    const bad = await ctx.sql.runAndReadAll(
      `select min(${staged.line}) as line from ${staged.stage}
       where try_cast(${col('costItemValue')} as decimal(18,4)) < 0 or try_cast(${col('costItemShippingValue')} as decimal(18,4)) < 0
          or not regexp_full_match(trim(${col('costCurrency')}), '[A-Za-z]{3}')`,
    );
    const line = bad.getRowObjectsJson()[0]?.line;
    if (line !== null && line !== undefined) {
      throw new RefusedFile(Number(line), 'costs must be zero or positive and costCurrency a 3-letter ISO code');
    }
    const result = await insertOrExplain(
      ctx,
      staged,
      format.columns,
      landCogsSql(`select $connectionId, trim(${col('asin')}), trim(${col('sku')}), upper(trim(${col('costCurrency')})),
              strptime(trim(${col('fromDate')}), '%Y-%m-%d')::date, ${col('costItemValue')}::decimal(18,4),
              ${col('costItemShippingValue')}::decimal(18,4), nullif(trim(${col('itemSupplierName')}), ''),
              $fileId, ${staged.line}, $landedAt::timestamptz
       from ${staged.stage}
       qualify row_number() over (partition by trim(${col('asin')}), trim(${col('sku')}), upper(trim(${col('costCurrency')})), trim(${col('fromDate')}) order by rowid desc) = 1`),
      { connectionId: ctx.connection.id, fileId: ctx.fileId, landedAt: ctx.landedAt },
    );
    return Number(result.rowsChanged);
  },
};
