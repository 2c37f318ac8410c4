import { existsSync } from 'node:fs';
import { openPostgresControl } from '../../db/control-store.ts';
import type { Warehouse } from '../../db/warehouse.ts';
import { checkLine, fail, ok, skipped, type CheckResult } from '../../doctor/check.ts';
import { openReadOnly, pendingMigrations } from '../../doctor/control-plane-check.ts';
import { runDoctor } from '../../doctor/doctor.ts';
import { MktdataError } from '../../errors.ts';
import type { Home } from '../../home.ts';
import { connectorClock } from '../../pipelines/fetch/live.ts';
import { scaleConfig, sharedHome, type ScaleConfig } from '../../scale/scale-config.ts';
import { systemClock, type Clock } from '../../time/clock.ts';
import { served } from '../served.ts';

/** The control plane doctor reads, the lines saying how it was opened, and how to let it go. */
interface Opened {
  wh: Warehouse | null;
  lines: CheckResult[];
  close(): Promise<void>;
}

const none = async () => {};

/** Pending migrations as a line's words: the migrations run when a command that writes opens the control plane. */
const migrated = (pending: string[]) =>
  pending.length === 0
    ? 'migrated'
    : `${pending.length} migration(s) of this version not yet run (${pending.length > 2 ? `${pending[0]} … ${pending.at(-1)}` : pending.join(', ')})`;

/**
 * A single home's warehouse: the running server's when the command was handed to it (src/cli/admin-channel.ts),
 * else opened read-only: doctor writes nothing, so a read-only home can still be examined.
 */
async function openHome(home: Home): Promise<Opened> {
  const serving = served();
  if (serving)
    return {
      wh: serving.wh,
      lines: [ok('warehouse', `held by the running server (pid ${process.pid}), which ran these checks`)],
      close: none,
    };
  if (!existsSync(home.warehouse))
    return {
      wh: null,
      lines: [fail('warehouse', `${home.root} has no warehouse.duckdb`, `run \`mktdata init --home ${home.root}\``)],
      close: none,
    };
  try {
    const wh = await openReadOnly(home);
    const pending = await pendingMigrations(wh.db).catch(async (error: unknown) => {
      await wh.close();
      throw error;
    });
    const state = pending.length ? `${migrated(pending)}: the next command that writes runs them` : 'migrated';
    return { wh, lines: [ok('warehouse', `${home.warehouse} opens; control plane ${state}`)], close: wh.close };
  } catch (error) {
    const first = (error as Error).message.split('\n')[0]!;
    const locked = /could not set lock|conflicting lock/i.test(first);
    return {
      wh: null,
      lines: [
        fail(
          'warehouse',
          `${home.warehouse} cannot be opened: ${first}`,
          locked
            ? 'another process (not `mktdata serve`) is writing the home (see writer.json): run `mktdata doctor` again when it has finished'
            : 'restore the home from a backup if the file is damaged',
        ),
      ],
      close: none,
    };
  }
}

/** A scaled-out install's control plane: the shared PostgreSQL, asked without migrating it. */
async function openShared(config: ScaleConfig): Promise<Opened> {
  const skip = skipped('warehouse', "scaled out: each worker holds its shards' warehouses");
  let store: Awaited<ReturnType<typeof openPostgresControl>>;
  try {
    store = await openPostgresControl(config.databaseUrl, { migrate: false });
  } catch (error) {
    const why = (error as Error).message.split('\n')[0]!;
    return {
      wh: null,
      lines: [skip, fail('PostgreSQL', why, 'start PostgreSQL, or correct MKTDATA_DATABASE_URL')],
      close: none,
    };
  }
  const pending = await pendingMigrations(store.db).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const wh = { home: sharedHome(config), db: store.db, sql: undefined as never, close: store.close };
  const line = pending.length
    ? fail('PostgreSQL', `answers; ${migrated(pending)}`, 'start a `mktdata worker` of this version (it migrates)')
    : ok('PostgreSQL', 'answers; control plane migrated');
  return { wh, lines: [skip, line], close: store.close };
}

/**
 * `mktdata doctor`: checks the install and prints a line per check (`--format json`: an array), each failure with
 * what to do; exits 1 unless every check holds.
 */
export async function doctor(home: Home, format: 'text' | 'json'): Promise<void> {
  let scale: ScaleConfig | null = null;
  try {
    scale = scaleConfig();
  } catch {
    // The configuration line names what is wrong with the scale-out variables; the home is checked meanwhile.
  }
  const opened = scale && !served() ? await openShared(scale) : await openHome(home);
  let clock: Clock = systemClock;
  try {
    clock = served()?.connectors.clock ?? connectorClock();
  } catch {
    // An invalid MKTDATA_CLOCK_SPEED: the configuration line says so; the system clock is compared meanwhile.
  }
  let results: CheckResult[];
  try {
    results = await runDoctor({
      home: scale ? sharedHome(scale) : home,
      scaled: scale !== null,
      wh: opened.wh,
      controlLines: opened.lines,
      config: served()?.connectors.config,
      clock,
    });
  } finally {
    await opened.close();
  }
  console.log(format === 'json' ? JSON.stringify(results, null, 2) : results.map(checkLine).join('\n'));
  const failed = results.filter((r) => r.status === 'fail').length;
  if (failed > 0) throw new MktdataError('ERR_DOCTOR_FAILED', { count: failed, total: results.length });
}
