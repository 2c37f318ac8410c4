import { InvalidArgumentError, type Command } from 'commander';
import type { Warehouse } from '../db/warehouse.ts';

/** Runs a command's work on the control plane (the home's warehouse, or a scaled-out install's PostgreSQL). */
export type WithControl = <T>(command: string, work: (wh: Warehouse) => Promise<T>) => Promise<T>;

/** Adds a subcommand with an example at the end of its --help. */
export type CommandFactory = (parent: Command, name: string, example: string) => Command;

/** A `YYYY-MM-DD` option value. */
export const date = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)))
    throw new InvalidArgumentError(`not a date (YYYY-MM-DD): ${value}`);
  return value;
};

/** A folder option value: an empty one would name the current folder without saying so. */
export const folder = (value: string) => {
  if (value.trim() === '') throw new InvalidArgumentError('an empty path: name the folder');
  return value;
};

/** A whole-number option value, exact (at most 2^53 - 1). */
export const wholeNumber = (value: string) => {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`not a whole number: ${value}`);
  // Beyond 2^53 a number is no longer exact: 9223372036854775000 would be stored as another value.
  if (!Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError(`${value} is larger than ${Number.MAX_SAFE_INTEGER}`);
  return Number(value);
};
