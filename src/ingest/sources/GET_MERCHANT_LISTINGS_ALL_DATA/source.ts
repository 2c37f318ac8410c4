import { reportFetch } from '../../fetch-spec.ts';
import { lineageParams, lineageSelectList, rawTableDdl, stagedBefore, stageFlatFile } from '../../flat-file.ts';
import { RefusedFile, type LandContext, type Source, type StagedFile } from '../../source.ts';
import { fallbackEncoding } from '../../text-file.ts';
import { format } from './format.ts';
import { openDateUtc } from './open-date.ts';
import { typedSelectList } from '../../flat-values.ts';
import { insertOrExplain } from '../../flat-values.ts';

const table = 'raw.get_merchant_listings_all_data';

/** The columns as staged text is cast: `open-date` stays text here and is parsed by `openDateUtc`. */
const castColumns = format.columns.map((c) => (c.name === 'open-date' ? { ...c, type: 'text' as const } : c));

/** Refuses the file at the first `open-date` that is not a date-time with a known zone. */
async function refuseBadOpenDate(ctx: LandContext, staged: StagedFile): Promise<void> {
  const ref = staged.present.get('open-date');
  if (!ref) return;
  const v = `nullif(trim(${ref}), '')`;
  const reader = await ctx.sql.runAndReadAll(
    `select ${staged.line} as line, ${ref} as value from ${staged.stage} where ${v} is not null and (${openDateUtc(v)}) is null order by 1 limit 1`,
  );
  const bad = reader.getRowObjectsJson()[0];
  if (bad) {
    throw new RefusedFile(
      Number(bad.line),
      `open-date: '${String(bad.value)}' is not a date-time with a known zone (such as 2013-01-07 07:35:42 PST or 08/07/2016 10:12:40 BST)`,
    );
  }
}

/** All Listings report: every snapshot as delivered; `open_date` in UTC. */
export const source: Source = {
  name: 'GET_MERCHANT_LISTINGS_ALL_DATA',
  table,
  createTable: rawTableDdl(table, format),
  stage: (ctx) => stageFlatFile(ctx, format, fallbackEncoding(ctx.connection.marketplaceId)),
  async land(ctx, staged = stagedBefore()) {
    await refuseBadOpenDate(ctx, staged);
    const typed = `select ${typedSelectList(staged, castColumns)}, ${lineageSelectList(staged)} from ${staged.stage}`;
    const insert = `insert into ${table} select * replace ((${openDateUtc(`nullif(trim(open_date), '')`)}) as open_date) from (${typed})`;
    const result = await insertOrExplain(ctx, staged, castColumns, insert, lineageParams(ctx));
    return Number(result.rowsChanged);
  },
  fetch: reportFetch('GET_MERCHANT_LISTINGS_ALL_DATA', 'none'),
};
