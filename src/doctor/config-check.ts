import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadConnectorConfig, type ConnectorConfig } from '../connectors/config.ts';
import { resourceOptions } from '../db/warehouse.ts';
import type { Home } from '../home.ts';
import { minFreeBytes } from '../lib/disk-space.ts';
import { connectorClock } from '../pipelines/fetch/live.ts';
import { scaleConfig } from '../scale/scale-config.ts';
import { fail, ok, type CheckResult } from './check.ts';
import { whyNotWritable } from './writable-folder.ts';

const name = 'configuration';

/** What the configuration check found: its line, and the connector settings when they could be read. */
export interface ConfigFindings {
  result: CheckResult;
  config: ConnectorConfig | null;
}

/**
 * `mktdata.config` and the environment, each through the validator the commands themselves use (one definition
 * each): the connector settings, MKTDATA_MEMORY_LIMIT, MKTDATA_THREADS, MKTDATA_MIN_FREE_DISK, MKTDATA_CLOCK_*, the scale-out
 * variables; and MKTDATA_TEMP_DIRECTORY, which only the first spill would otherwise find wrong.
 */
export function configurationCheck(home: Home, env: NodeJS.ProcessEnv = process.env): ConfigFindings {
  const problems: string[] = [];
  const attempt = <T>(validate: () => T): T | null => {
    try {
      return validate();
    } catch (error) {
      problems.push((error as Error).message.split('\n')[0]!);
      return null;
    }
  };
  const config = attempt(() => loadConnectorConfig(home, env));
  attempt(() => resourceOptions(env));
  attempt(() => minFreeBytes(env));
  attempt(() => connectorClock(env));
  attempt(() => scaleConfig(env));
  const temp = env.MKTDATA_TEMP_DIRECTORY?.trim();
  if (temp) {
    const path = resolve(temp);
    // DuckDB makes the folder at its first spill: then its nearest existing parent must take it.
    let existing = path;
    while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
    const why = statSync(existing).isDirectory() ? whyNotWritable(existing) : 'is a file, not a folder';
    if (why)
      problems.push(`MKTDATA_TEMP_DIRECTORY: ${existing} ${why.startsWith('is ') ? why : `is not writable: ${why}`}`);
  }
  const source = existsSync(config?.file ?? '') ? `${config!.file} and the environment` : 'the environment';
  if (problems.length === 0) return { result: ok(name, `the settings in ${source} are valid`), config };
  return {
    result: fail(
      name,
      problems.join('; '),
      'correct these values (docs/connectors.md "Your applications", docs/operations.md "Memory and disk")',
    ),
    config,
  };
}
