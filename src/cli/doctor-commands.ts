import { Option, type Command } from 'commander';
import type { Home } from '../home.ts';
import type { CommandFactory } from './arguments.ts';
import { served } from './served.ts';

/**
 * `mktdata doctor` (its module loads when it runs). Beside a running `serve` it is handed to the server
 * (`handToServer`), whose open warehouse, environment, connectors and clock are the ones that do the work.
 */
export function doctorCommands(
  program: Command,
  command: CommandFactory,
  home: () => Home,
  handToServer: () => Promise<void>,
): void {
  command(program, 'doctor', 'mktdata doctor --home /var/lib/mktdata')
    .description(
      "check the install and say what to do: the home's permissions, the secret key, the configuration, the applications' credentials, each connection's grant, the clock against the marketplace's, free disk, Node.js and DuckDB, PostgreSQL and the shared folder when scaled out; exits 1 unless every check holds",
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (o: { format: 'text' | 'json' }) => {
      const { scaleConfig } = await import('../scale/scale-config.ts');
      const scaled = (() => {
        try {
          return scaleConfig() !== null;
        } catch {
          return false;
        }
      })();
      if (!served() && !scaled) await handToServer();
      const { doctor } = await import('./commands/doctor.ts');
      await doctor(home(), o.format);
    });
}
