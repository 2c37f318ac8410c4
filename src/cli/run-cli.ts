import { CommanderError } from 'commander';
import { MktdataError } from '../errors.ts';
import { buildProgram, Forwarded } from './program.ts';

/**
 * Runs one `mktdata` command line (without the node and script arguments) and returns its exit code: 0 success,
 * 1 a failure (one line on stderr), 2 a usage error (commander has printed its message and the help). `mktdata
 * serve` runs the command lines its admin channel hands it through this too.
 */
export async function runCli(argv: string[]): Promise<number> {
  try {
    await buildProgram(argv, runCli).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof Forwarded) return error.exitCode;
    // Commander has printed its message (or the help, or the version) already.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const message = error instanceof Error ? error.message : String(error);
    console.error(`mktdata: ${message.split('\n')[0]}`);
    if (!(error instanceof MktdataError) && process.env.MKTDATA_DEBUG) console.error(error);
    return 1;
  }
}
