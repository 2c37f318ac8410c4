import { AsyncLocalStorage } from 'node:async_hooks';
import { format } from 'node:util';
import type { Connectors } from '../connectors/connectors.ts';
import type { Warehouse } from '../db/warehouse.ts';
import type { Metrics } from '../metrics/metrics.ts';

/**
 * A command that `mktdata serve` runs for a client of its admin channel (src/cli/admin-channel.ts): the server's open
 * warehouse instead of opening the home again, the client's folder and secrets, and its output sent back to it.
 */
export interface ServedCommand {
  wh: Warehouse;
  connectors: Connectors;
  /** The client's working folder, which relative paths in its arguments are relative to. */
  cwd: string;
  /** Secrets the client read before it handed the command over (by environment variable name). */
  secrets: Record<string, string>;
  out(text: string): void;
  err(text: string): void;
  /** `--quiet` of this command (the server's environment is not touched). */
  quiet: boolean;
  /** Runs work that writes the warehouse in turn with the pipeline runs (the home has one writer). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Queues a run of every pipeline now, as the scheduler does at a refresh time. */
  queueRuns(trigger: 'connected' | 'cli'): void;
  /** The server's metrics (runs, landings and fetches of the commands it runs count too), unless switched off. */
  metrics?: Metrics;
}

const store = new AsyncLocalStorage<ServedCommand>();

/** The command being served, when this code runs for a client of the admin channel. */
export const served = (): ServedCommand | undefined => store.getStore();

/** Runs `work` as a served command: its console output goes to the client, not the server's log. */
export function runServed<T>(command: ServedCommand, work: () => Promise<T>): Promise<T> {
  routeConsole();
  return store.run(command, work);
}

/** Runs `work` outside any served command (work the server goes on with after the client is gone). */
export const unserved = <T>(work: () => T): T => store.exit(work);

/** The folder relative paths of the command line are relative to. */
export const commandCwd = (): string => served()?.cwd ?? process.cwd();

/** Whether `--quiet` was given. */
export const quiet = (): boolean => served()?.quiet ?? Boolean(process.env.MKTDATA_QUIET);

let routed = false;

/** Sends console.log and console.error of a served command to its client; everything else prints as before. */
function routeConsole(): void {
  if (routed) return;
  routed = true;
  const { log, error } = console;
  console.log = (...args: unknown[]) => {
    const command = served();
    if (command) command.out(`${format(...args)}\n`);
    else log(...args);
  };
  console.error = (...args: unknown[]) => {
    const command = served();
    if (command) command.err(`${format(...args)}\n`);
    else error(...args);
  };
}
