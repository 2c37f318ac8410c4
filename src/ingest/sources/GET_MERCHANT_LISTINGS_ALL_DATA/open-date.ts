/**
 * UTC offsets, in minutes, of the zone abbreviations listing reports print after `open-date`
 * (upstream-formats f1: `2013-01-07 07:35:42 PST`, `08/07/2016 10:12:40 BST`). DuckDB's own `%Z`
 * reads BST as Bangladesh time, so the abbreviations are mapped here. Ambiguous ones take the
 * meaning of a marketplace that prints them: CST is US Central, IST India, AST Arabia (Amazon.sa).
 */
export const zoneOffsets: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  WET: 0,
  WEST: 60,
  BST: 60,
  CET: 60,
  MEZ: 60,
  CEST: 120,
  MESZ: 120,
  EET: 120,
  EEST: 180,
  TRT: 180,
  MSK: 180,
  AST: 180,
  GST: 240,
  IST: 330,
  SGT: 480,
  AWST: 480,
  JST: 540,
  KST: 540,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
  BRT: -180,
  BRST: -120,
  ART: -180,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
};

/** Local date-time layouts of `open-date` without its zone: ISO-like, day-first (UK, EU) and year-first (JP). */
const layouts = [
  '%Y-%m-%d %H:%M:%S',
  '%d/%m/%Y %H:%M:%S',
  '%d.%m.%Y %H:%M:%S',
  '%Y/%m/%d %H:%M:%S',
  '%Y-%m-%d',
  '%d/%m/%Y',
  '%d.%m.%Y',
  '%Y/%m/%d',
];
const layoutList = `[${layouts.map((l) => `'${l}'`).join(', ')}]`;

/**
 * SQL of the UTC timestamp of an `open-date` text expression `v`, or null when it does not parse or
 * names an unknown zone. Without an abbreviation the text is ISO 8601 (with offset) or taken as UTC.
 */
export function openDateUtc(v: string): string {
  const zone = `upper(regexp_extract(${v}, '\\s([A-Za-z]{2,5})$', 1))`;
  const local = `try_strptime(trim(regexp_replace(${v}, '\\s[A-Za-z]{2,5}$', '')), ${layoutList})`;
  const offset = `case ${zone} ${Object.entries(zoneOffsets)
    .map(([name, minutes]) => `when '${name}' then ${minutes}`)
    .join(' ')} end`;
  return `case
      when ${zone} <> '' then timezone('UTC', ${local} - to_minutes((${offset})::bigint))
      else coalesce(try_cast(${v} as timestamptz), timezone('UTC', try_strptime(${v}, ${layoutList})))
    end`;
}
