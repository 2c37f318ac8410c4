/** Windows-1252 bytes 0x80..0x9F (WHATWG index; undefined slots map to the C1 control itself). */
const CP1252_HIGH: readonly number[] = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d,
  0x017d, 0x008f, 0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a,
  0x0153, 0x009d, 0x017e, 0x0178,
];
const CP1252_ENCODE = new Map<number, number>();
for (let b = 0; b < 256; b++) CP1252_ENCODE.set(b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b, b);

/**
 * Text as windows-1252 bytes, the way EU flat files arrive. Node's TextDecoder('windows-1252') is latin-1 since
 * 20.18.3 (nodejs/node#60888), so the table is our own.
 */
export function encodeCp1252(text: string): Buffer {
  const out = Buffer.alloc(text.length);
  let i = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const byte = cp >= 0x80 && cp <= 0x9f ? undefined : CP1252_ENCODE.get(cp);
    if (byte === undefined) throw new Error(`character U+${cp.toString(16)} (${ch}) not encodable in cp1252`);
    out[i++] = byte;
  }
  return out.subarray(0, i);
}

/** Text in the seller's flat-file charset. */
export const encodeText = (text: string, charset: 'UTF-8' | 'Cp1252'): Buffer =>
  charset === 'Cp1252' ? encodeCp1252(text) : Buffer.from(text, 'utf8');

/** Cents as `-12.34`. */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A tab-separated flat file with one header line; a value holding a tab or line break is a bug here. */
export function toTsv(header: readonly string[], rows: Record<string, string>[]): string {
  const lines = [header.join('\t')];
  for (const row of rows) {
    lines.push(
      header
        .map((h) => {
          const v = row[h];
          if (v === undefined) throw new Error(`missing column ${h}`);
          if (/[\t\r\n]/.test(v)) throw new Error(`value for ${h} contains a tab or newline: ${JSON.stringify(v)}`);
          return v;
        })
        .join('\t'),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Splits a non-negative integer by weights (largest remainder; ties to the earlier index). */
export function splitInt(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total === 0 || sum <= 0) return weights.map(() => 0);
  const raw = weights.map((w) => (total * w) / sum);
  const out = raw.map(Math.floor);
  let rest = total - out.reduce((a, b) => a + b, 0);
  const order = raw
    .map((r, i) => ({ i, f: r - Math.floor(r) }))
    .filter((x) => weights[x.i]! > 0)
    .sort((a, b) => b.f - a.f || a.i - b.i);
  for (let k = 0; rest > 0; k++, rest--) out[order[k % order.length]!.i]!++;
  return out;
}
