import { insertOrExplain, lineageParams, lineageSelectList, rawTableDdl, stageFlatFile, typedSelectList } from '../../flat-file.ts';
import type { Source } from '../../source.ts';
import { fallbackEncoding } from '../../text-file.ts';
import { format } from './format.ts';

const table = 'raw.get_flat_file_all_orders_data_by_order_date_general';

/** All Orders flat file: every version of every order line, as delivered. */
export const source: Source = {
  name: 'GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE_GENERAL',
  table,
  createTable: rawTableDdl(table, format),
  async land(ctx) {
    const staged = await stageFlatFile(ctx, format, fallbackEncoding(ctx.connection.marketplaceId));
    try {
      const insert = `insert into ${table} select ${typedSelectList(staged, format.columns)}, ${lineageSelectList(staged)} from ${staged.stage}`;
      const result = await insertOrExplain(ctx, staged, format.columns, insert, lineageParams(ctx));
      return Number(result.rowsChanged);
    } finally {
      await staged.drop();
    }
  },
};
