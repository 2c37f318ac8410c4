import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModels } from '../../src/models/load-models.ts';
import { modelsDir } from '../../src/lib/project-paths.ts';

/** A copy of the project's models in a fresh folder, with its own cache folder. */
function copyModels() {
  const dir = mkdtempSync(join(tmpdir(), 'mktdata-model-cache-'));
  cpSync(modelsDir, join(dir, 'models'), { recursive: true });
  process.env.MKTDATA_CACHE_DIR = join(dir, 'cache');
  return join(dir, 'models');
}
const description = (dir: string) => loadModels(dir).find((m) => m.id === 'marts.mkt_cogs')!.config.description;

describe('the model graph cache', () => {
  const cacheDir = process.env.MKTDATA_CACHE_DIR;
  afterAll(() => {
    process.env.MKTDATA_CACHE_DIR = cacheDir;
  });

  it('keeps the loaded graph on disk and loads the same graph from it', () => {
    const dir = copyModels();
    const first = loadModels(dir);
    const [file] = readdirSync(process.env.MKTDATA_CACHE_DIR!);
    expect(file).toMatch(/^model-graph-[0-9a-f]{16}\.json$/);
    expect(loadModels(dir)).toEqual(first);
  });

  it('sees an edited .yml at once: the edit changes the key', () => {
    const dir = copyModels();
    expect(description(dir)).not.toBe('edited');
    const yml = join(dir, 'marts', 'mkt_cogs.yml');
    writeFileSync(yml, readFileSync(yml, 'utf8').replace(/^description: .*$/m, 'description: edited'));
    expect(description(dir)).toBe('edited');
  });

  it('ignores a cache file that is damaged or made of other files', () => {
    const dir = copyModels();
    const cache = process.env.MKTDATA_CACHE_DIR!;
    // A new process (the built loader, as a command runs it) reads the disk cache: how many models, and one
    // description.
    const load = () =>
      execFileSync(
        'node',
        [
          '--input-type=module',
          '-e',
          `import { loadModels } from './dist/models/load-models.js'; const m = loadModels(${JSON.stringify(dir)}); console.log(m.length, m.find((x) => x.id === 'marts.mkt_cogs').config.description)`,
        ],
        { env: process.env, encoding: 'utf8' },
      );
    const expected = `${loadModels(dir).length} ${description(dir)}\n`;
    const before = readdirSync(cache);
    expect(load()).toBe(expected);
    const file = join(
      cache,
      readdirSync(cache).find((f) => !before.includes(f))!,
    );
    const [key] = readFileSync(file, 'utf8').split('\n');

    writeFileSync(file, `${key}\n[{"truncated`); // the right key, cut short
    expect(load()).toBe(expected);
    writeFileSync(file, `${'0'.repeat(64)}\n[]`); // another graph's key
    expect(load()).toBe(expected);
    expect(readFileSync(file, 'utf8').startsWith(`${key}\n[{`)).toBe(true); // written anew
  });

  it('refuses a catalog entry whose related action is no action type of the spec, or has the wrong relation, naming file and field', () => {
    const dir = copyModels();
    const yml = join(dir, 'marts', 'mkt_fba_removal_orders.yml');
    const text = readFileSync(yml, 'utf8');
    writeFileSync(
      yml,
      text.replace(
        '{type: MKT_FBA_REMOVAL_ORDERS_ADD, relation: writes}',
        '{type: MKT_FBA_REMOVAL_ORDERS_PUT, relation: writes}',
      ),
    );
    expect(() => loadModels(dir)).toThrow(/mkt_fba_removal_orders\.yml catalog\.relatedActions\.0\.type: /);
    writeFileSync(
      yml,
      text.replace(
        '{type: MKT_FBA_REMOVAL_ORDERS_ADD, relation: writes}',
        '{type: MKT_FBA_REMOVAL_ORDERS_ADD, relation: live}',
      ),
    );
    expect(() => loadModels(dir)).toThrow(/relatedActions\.0: writes goes with a WRITE type, live with a READ one/);
  });
});
