import type { Command } from 'commander';
import type { Home } from '../home.ts';
import { MktdataError } from '../errors.ts';
import { folder, type CommandFactory, type WithControl } from './arguments.ts';

/** A scaled-out install (MKTDATA_DATABASE_URL) has no single home to copy: its backup is PostgreSQL's and the shared folder's. */
async function refuseScaledOut(command: string): Promise<void> {
  if ((await import('../scale/scale-config.ts')).scaleConfig())
    throw new MktdataError('ERR_BACKUP_SCALED_OUT', { command });
}

/**
 * `mktdata backup` and `mktdata restore` (their module loads when they run). A backup beside a running server is
 * handed to it (`handToServer`) and taken as the home's writer (`withHome`), in turn with its pipeline runs; a
 * restore is never handed over: it replaces the home, and refuses one a process holds.
 */
export function backupCommands(
  program: Command,
  command: CommandFactory,
  home: () => Home,
  path: (file: string) => string,
  withHome: WithControl,
  handToServer: () => Promise<void>,
): void {
  command(program, 'backup', 'mktdata backup --to /backups/mktdata-2026-12-07 --include-secret-key')
    .description(
      'copy the home (the warehouse checkpointed, the published snapshot, every landed document, the config) into a new or empty folder with a manifest of checksums; beside a running `mktdata serve` the server takes it between pipeline runs',
    )
    .requiredOption('--to <dir>', 'the backup folder: new, or empty', folder)
    .option(
      '--include-secret-key',
      'also copy secret.key, without which the stored credentials and webhook secrets cannot be read (keep the backup as safe as the key)',
    )
    .action(async (o: { to: string; includeSecretKey?: boolean }) => {
      await refuseScaledOut('backup');
      await handToServer();
      const { backupCommand } = await import('./commands/backup.ts');
      await backupCommand(home(), path(o.to), { includeSecretKey: o.includeSecretKey }, (work) =>
        withHome('backup', work),
      );
    });

  command(program, 'restore', 'mktdata restore --from /backups/mktdata-2026-12-07 --home /srv/mktdata')
    .description(
      'restore a backup into the home (--home): every file checked against the manifest first; a home that is not empty only with --force, none that a process holds',
    )
    .requiredOption('--from <dir>', 'the backup folder (made by `mktdata backup`)', folder)
    .option('--force', 'replace a home that is not empty: its files not in the backup are deleted')
    .action(async (o: { from: string; force?: boolean }) => {
      await refuseScaledOut('restore');
      const { restoreCommand } = await import('./commands/backup.ts');
      await restoreCommand(home(), path(o.from), { force: o.force });
    });
}
