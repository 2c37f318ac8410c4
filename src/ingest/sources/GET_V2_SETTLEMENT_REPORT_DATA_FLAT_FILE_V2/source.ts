import { flatFileSource } from '../../flat-file-source.ts';
import { RefusedFile, type LandContext, type Source } from '../../source.ts';
import { format } from './format.ts';

const table = 'raw.get_v2_settlement_report_data_flat_file_v2';
const flat = flatFileSource('GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2', table, format);

/**
 * A settlement report is whole only when its amount lines add up to its summary line's total-amount: a file cut
 * at a line boundary parses cleanly but falls short of its own total, and is refused before anything lands.
 * (The build checks the same of the latest version of every settlement.) A header-only file has no summary line.
 */
async function checkTotals(ctx: LandContext): Promise<void> {
  const reader = await ctx.sql.runAndReadAll(
    `select settlement_id,
            count(*) filter (where transaction_type is null and total_amount is not null)::int as summaries,
            min(_line_number) filter (where transaction_type is null and total_amount is not null)::int as line,
            any_value(total_amount) filter (where transaction_type is null and total_amount is not null)::varchar as total,
            coalesce(sum(amount) filter (where transaction_type is not null), 0)::varchar as amounts,
            coalesce(any_value(total_amount) filter (where transaction_type is null and total_amount is not null) = coalesce(sum(amount) filter (where transaction_type is not null), 0), false) as balanced
     from ${table} where _file_id = $fileId group by all order by line nulls first limit 1`,
    { fileId: ctx.fileId },
  );
  const row = reader.getRowObjectsJson()[0];
  if (!row) throw new RefusedFile(null, 'the settlement report has no lines: not even its summary line');
  if (row.summaries !== 1)
    throw new RefusedFile(
      null,
      `settlement ${row.settlement_id} has ${row.summaries} summary lines (with total-amount), not 1`,
    );
  if (!row.balanced) {
    throw new RefusedFile(
      Number(row.line),
      `settlement ${row.settlement_id}: its amounts add up to ${row.amounts}, not to the total-amount ${row.total} of its summary line (the file is incomplete or damaged)`,
    );
  }
}

export const source: Source = {
  ...flat,
  // Each file's totals are checked after its rows land: it lands on its own.
  batch: undefined,
  async land(ctx, staged) {
    const rows = await flat.land(ctx, staged);
    await checkTotals(ctx);
    return rows;
  },
  fetch: { kind: 'settlements', api: 'sp-api', reportType: 'GET_V2_SETTLEMENT_REPORT_DATA_FLAT_FILE_V2' },
};
