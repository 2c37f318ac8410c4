import { VARCHAR } from '@duckdb/node-api';
import type { Home } from '../home.ts';
import { publishCount } from '../publish/publish.ts';
import { publishedManifests, withSnapshot } from '../publish/open-snapshot.ts';

/** A connection's daily figures from the published mkt_profit_by_date: sales, ad spend and profit per date. */
export interface DailyFigures {
  connectionId: string;
  currency: string;
  dates: string[];
  totalSales: number[];
  adSpend: number[];
  profit: number[];
}

/** What the console reads from the published snapshot, for every connection. */
export interface Figures {
  daily: DailyFigures[];
  /** Rows per catalog table, per connection. */
  rows: Map<string, Map<string, number>>;
}

let cached: { key: string; value: Promise<Figures> } | undefined;

const cacheKey = (home: Home, today: string) =>
  `${publishCount()} ${today} ${publishedManifests(home)
    .map((m) => m.snapshotId)
    .join(',')}`;

/**
 * The published figures of every connection: daily profit, sales and ad spend of its last 90 days (ending `today`,
 * or at its latest date published when that is earlier: a connection whose data stopped still shows its last 90),
 * and its row count in every catalog table. Read once per publish and day; pages filter them by scope.
 */
export function snapshotFigures(home: Home, today: string): Promise<Figures> {
  const key = cacheKey(home, today);
  if (cached?.key === key) return cached.value;
  const value = readFigures(home, today);
  cached = { key, value };
  value.catch(() => {
    if (cached?.value === value) cached = undefined;
  });
  return value;
}

async function readFigures(home: Home, today: string): Promise<Figures> {
  if (publishedManifests(home).length === 0) return { daily: [], rows: new Map() };
  return withSnapshot(home, async (sql) => {
    const tables = (
      await sql.runAndReadAll(
        `select table_name from information_schema.columns where column_name = 'seller_or_vendor_id' and table_schema = 'main'`,
      )
    )
      .getRows()
      .map(([t]) => String(t));
    const rows = new Map<string, Map<string, number>>();
    if (tables.length > 0) {
      const counts = tables
        .map((t) => `select '${t}' as t, seller_or_vendor_id as id, count(*) as n from ${t} group by all`)
        .join(' union all ');
      for (const [t, id, n] of (await sql.runAndReadAll(counts)).getRows()) {
        if (!rows.has(String(t))) rows.set(String(t), new Map());
        rows.get(String(t))!.set(String(id), Number(n));
      }
    }
    const daily: DailyFigures[] = [];
    if (tables.includes('mkt_profit_by_date')) {
      const reader = await sql.runAndReadAll(
        `with last_day as (select seller_or_vendor_id, least(max(date), $today::date) as day from mkt_profit_by_date group by all)
         select p.seller_or_vendor_id, currency, date::varchar, round(sum(total_sales), 2)::double, round(sum(ad_spend), 2)::double, round(sum(profit), 2)::double
         from mkt_profit_by_date as p join last_day as l on l.seller_or_vendor_id = p.seller_or_vendor_id
         where date > day - 90 and date <= day
         group by all order by 1, 2, 3`,
        { today },
        { today: VARCHAR },
      );
      for (const [id, currency, date, sales, spend, profit] of reader.getRows()) {
        let last = daily.at(-1);
        if (!last || last.connectionId !== id || last.currency !== currency)
          daily.push(
            (last = {
              connectionId: String(id),
              currency: String(currency),
              dates: [],
              totalSales: [],
              adSpend: [],
              profit: [],
            }),
          );
        last.dates.push(String(date));
        last.totalSales.push(Number(sales));
        last.adSpend.push(Number(spend));
        last.profit.push(Number(profit));
      }
    }
    return { daily, rows };
  });
}
