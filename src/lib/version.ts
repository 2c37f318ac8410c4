import { readFileSync } from 'node:fs';

// From src/lib/ and dist/lib/ alike, package.json is two folders up (it ships in the npm package).
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The version of this mktdata, from its package.json. */
export const mktdataVersion: string = version;

const semver = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * Compares two semantic versions (semver.org 2.0.0 precedence: numbers, then a pre-release below its release, its
 * identifiers numeric below alphanumeric); negative when `a` is older, 0 when equal, positive when newer. Text that is
 * no version throws.
 */
export function compareVersions(a: string, b: string): number {
  const [pa, pb] = [a, b].map((v) => {
    const m = semver.exec(v.trim());
    if (!m) throw new Error(`"${v}" is not a semantic version`);
    return { core: [m[1], m[2], m[3]].map(Number), pre: m[4]?.split('.') ?? [] };
  }) as [{ core: number[]; pre: string[] }, { core: number[]; pre: string[] }];
  for (let i = 0; i < 3; i++) if (pa.core[i] !== pb.core[i]) return pa.core[i]! - pb.core[i]!;
  if (pa.pre.length === 0 || pb.pre.length === 0) return pb.pre.length - pa.pre.length;
  for (let i = 0; i < Math.min(pa.pre.length, pb.pre.length); i++) {
    const [x, y] = [pa.pre[i]!, pb.pre[i]!];
    if (x === y) continue;
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (nx && ny) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return pa.pre.length - pb.pre.length;
}
