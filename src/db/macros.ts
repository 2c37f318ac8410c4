import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { MktdataError } from '../errors.ts';

import { modelsDir } from '../lib/project-paths.ts';

/**
 * The macros the models share (`models/macros.sql`): `create or replace macro` statements that every build runs
 * before its models, so that a step repeated across models has one definition. Landing uses some of them too (the
 * order events' statuses), which is why they are installed from the ground floor.
 */
export function loadMacros(dir: string = modelsDir): string {
  const file = join(dir, 'macros.sql');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

/**
 * Creates (or replaces) the macros of models/macros.sql, which models and the pipelines' SQL use; returns their text.
 */
export async function installMacros(sql: DuckDBConnection, dir?: string): Promise<string> {
  const macros = loadMacros(dir);
  if (macros.trim()) {
    await sql.run(macros).catch((error: Error) => {
      throw new MktdataError(
        'ERR_INPUT_INVALID',
        { where: 'models/macros.sql', reason: error.message.split('\n')[0]! },
        { cause: error },
      );
    });
  }
  return macros;
}

const withMacros = new WeakSet<DuckDBConnection>();

/**
 * Installs the macros once on this connection, for what runs before any model: a landing's order events use
 * mkt_order_status, a pipeline's touchedDates settlement_posted_at. A build installs them again (macros.sql may have
 * changed since).
 */
export async function ensureMacros(sql: DuckDBConnection): Promise<void> {
  if (withMacros.has(sql)) return;
  await installMacros(sql);
  withMacros.add(sql);
}
