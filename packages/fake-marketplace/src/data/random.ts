/** A 32-bit seed from any parts (FNV-1a over their text): the same parts give the same stream on every machine. */
export function seedOf(...parts: (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u0000')) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** mulberry32: a small, fast, well-distributed 32-bit generator. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UPPER_DIGITS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

/**
 * A seeded random stream. The fake marketplace never calls Math.random() or reads the clock for data: every value
 * comes from a stream seeded by what it describes (seller, day, order id), so overlapping requests agree.
 */
export class Rng {
  private readonly next: () => number;

  constructor(seed: number | (string | number)[]) {
    this.next = mulberry32(Array.isArray(seed) ? seedOf(...seed) : seed);
  }

  float(): number {
    return this.next();
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i]!;
      if (r < 0) return items[i]!;
    }
    return items[items.length - 1]!;
  }

  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }

  /** `n` characters of `alphabet` (upper-case letters without I and O, and digits, by default). */
  id(n: number, alphabet = UPPER_DIGITS): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet.charAt(Math.floor(this.next() * alphabet.length));
    return s;
  }
}
