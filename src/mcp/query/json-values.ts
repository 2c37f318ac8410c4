import {
  DuckDBTimestampValue,
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  type DuckDBTimestampTZValue,
  type DuckDBValue,
  type DuckDBValueConverter,
  type Json,
} from '@duckdb/node-api';

/**
 * Numbers with at most this many significant digits survive a trip through a JavaScript number exactly: the
 * number's shortest text is the same decimal again.
 */
const EXACT_DIGITS = 15;

/**
 * A DECIMAL as a JSON number, as the JSON export writes it ('10.10' → 10.1, the same value), when a JavaScript number
 * holds it exactly; else its exact text, so that no amount is ever rounded.
 */
function decimal(value: DuckDBValue): Json {
  const text = String(value);
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length;
  return digits <= EXACT_DIGITS ? Number(text) : text;
}

/** A 64-bit or wider integer as a JSON number when it is a safe integer, else its exact text. */
function integer(value: DuckDBValue): Json {
  const whole = BigInt(String(value));
  return whole >= BigInt(Number.MIN_SAFE_INTEGER) && whole <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(whole)
    : String(whole);
}

/** A TIMESTAMP as ISO 8601 (2026-03-02T10:00:00.5); infinities as DuckDB writes them. */
const timestamp = (value: DuckDBValue): Json => String(value).replace(' ', 'T');

/** A TIMESTAMPTZ as ISO 8601 in UTC (2026-03-02T10:00:00Z), whatever the server's zone. */
function timestampTz(value: DuckDBValue): Json {
  const { micros } = value as DuckDBTimestampTZValue;
  const text = new DuckDBTimestampValue(micros).toString();
  return /^\d/.test(text) ? `${text.replace(' ', 'T')}Z` : text;
}

const overrides: Partial<Record<DuckDBTypeId, (value: DuckDBValue) => Json>> = {
  [DuckDBTypeId.DECIMAL]: decimal,
  [DuckDBTypeId.BIGINT]: integer,
  [DuckDBTypeId.UBIGINT]: integer,
  [DuckDBTypeId.HUGEINT]: integer,
  [DuckDBTypeId.UHUGEINT]: integer,
  [DuckDBTypeId.TIMESTAMP]: timestamp,
  [DuckDBTypeId.TIMESTAMP_S]: timestamp,
  [DuckDBTypeId.TIMESTAMP_MS]: timestamp,
  [DuckDBTypeId.TIMESTAMP_NS]: timestamp,
  [DuckDBTypeId.TIMESTAMP_TZ]: timestampTz,
};

/**
 * Converts DuckDB values into JSON-safe ones: amounts exact, DATE as YYYY-MM-DD, timestamps ISO 8601, big integers
 * as numbers when safe; everything else (lists, structs, intervals, NaN...) as @duckdb/node-api's JSON form, with
 * these rules applied inside lists and structs too.
 */
export const jsonValue: DuckDBValueConverter<Json> = (value, type, converter) => {
  if (value === null || value === undefined) return null;
  const override = overrides[type.typeId];
  return override ? override(value) : JsonDuckDBValueConverter(value, type, converter);
};
