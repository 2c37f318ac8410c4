import type { Warehouse } from '../../db/warehouse.ts';
import { resolve } from 'node:path';
import { scaledClock, sharedVirtualClock, systemClock, type Clock } from '../../time/clock.ts';
import { loadConnectorConfig } from '../../connectors/config.ts';
import { Connectors, type ConnectorLog } from '../../connectors/connectors.ts';
import { connectorFetcher, type FetcherOptions } from './connector-fetcher.ts';
import { type RunFetcher } from './fetch-stage.ts';
import { anyCredentials } from '../../connectors/credentials.ts';

/**
 * The connectors' clock: the system clock, or, for tests and benchmarks against a fake marketplace, one running
 * MKTDATA_CLOCK_SPEED times faster (from MKTDATA_CLOCK_START at the real instant MKTDATA_CLOCK_REAL_START, epoch ms,
 * so that a fake marketplace in another process reads the same time), or, with MKTDATA_CLOCK_FILE, a virtual clock
 * (from MKTDATA_CLOCK_START) that moves only when the connectors wait on it and writes its time to that file for the
 * fake to read: a busy machine makes such a test slower, never later on the clock.
 */
export function connectorClock(env: NodeJS.ProcessEnv = process.env): Clock {
  const file = env.MKTDATA_CLOCK_FILE?.trim();
  if (file) {
    const start = Date.parse(env.MKTDATA_CLOCK_START ?? '');
    if (env.MKTDATA_CLOCK_START !== undefined && Number.isNaN(start))
      throw new Error(`MKTDATA_CLOCK_START must be a date and time, not ${env.MKTDATA_CLOCK_START}`);
    return sharedVirtualClock(resolve(file), Number.isNaN(start) ? Date.now() : start);
  }
  const speed = Number(env.MKTDATA_CLOCK_SPEED ?? 1);
  if (!(speed > 0)) throw new Error(`MKTDATA_CLOCK_SPEED must be a positive number, not ${env.MKTDATA_CLOCK_SPEED}`);
  if (speed === 1 && env.MKTDATA_CLOCK_START === undefined) return systemClock;
  const start = env.MKTDATA_CLOCK_START === undefined ? undefined : Date.parse(env.MKTDATA_CLOCK_START);
  const realStart = env.MKTDATA_CLOCK_REAL_START === undefined ? undefined : Number(env.MKTDATA_CLOCK_REAL_START);
  return scaledClock(speed, start, realStart);
}

/**
 * The live connectors for a run of this home when a connection holds credentials, else undefined (dropped files only).
 */
export async function liveFetcher(
  wh: Warehouse,
  options: FetcherOptions & { clock?: Clock; log?: ConnectorLog; connectors?: Connectors } = {},
): Promise<RunFetcher | undefined> {
  if (!(await anyCredentials(wh.db))) return undefined;
  const connectors =
    options.connectors ?? new Connectors(loadConnectorConfig(wh.home), options.clock ?? connectorClock(), options.log);
  return connectorFetcher(connectors, options);
}
