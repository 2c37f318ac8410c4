import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { MktdataError } from '../../errors.ts';
import { dataTable, html, text, when } from '../layout.ts';
import { nonEmpty, scopeConnections, type PageContext } from '../page-context.ts';
import { sidecarOf } from '../../home.ts';
import { forgetQuarantinedFile, quarantinedFilesOf } from '../../control/quarantined-files.ts';

/** The refused files a scope sees, newest first. */
async function refusedFiles(ctx: PageContext) {
  const connections = await scopeConnections(ctx);
  const names = new Map(connections.map((c) => [c.id, c.name]));
  const rows = await quarantinedFilesOf(ctx.wh.db, nonEmpty([...names.keys()]));
  return rows.map((r) => ({ ...r, connection: names.get(r.connection_id) ?? r.connection_id }));
}

/** `/quarantine`: every refused file with its line and reason, and a button that queues it again once fixed. */
export async function quarantinePage(ctx: PageContext, retried?: string): Promise<string> {
  const files = await refusedFiles(ctx);
  const done = retried
    ? `<p role="status" class="ok">${html(retried)} is back in the landing folder: the next run lands it.</p>`
    : '';
  const help =
    '<p>Nothing of a refused file reached the tables. Fix the cause (a newer mktdata, or the file itself where the operator sees it kept), then retry: the file goes back to its landing folder and the next run lands it, or refuses it again with the new reason.</p>';
  return (
    done +
    help +
    dataTable(
      'Refused files',
      [
        // Where the file is kept is a path on the server: the operator's to see.
        {
          header: 'File',
          cell: (f) =>
            text(f.file_name) + (ctx.scope.operator ? `<br><span class="muted">kept at ${html(f.kept_at)}</span>` : ''),
        },
        { header: 'Connection', cell: (f) => text(f.connection) },
        { header: 'Source', cell: (f) => text(f.source) },
        { header: 'Line', cell: (f) => text(f.line), num: true },
        { header: 'Reason', cell: (f) => `<span class="error">${html(f.reason)}</span>` },
        { header: 'Refused', cell: (f) => when(f.refused_at) },
        {
          header: 'Retry',
          cell: (f) =>
            `<form class="inline" method="post" action="/quarantine/${encodeURIComponent(f.id)}/retry"><button type="submit" aria-label="Retry ${html(f.file_name)}">Retry</button></form>`,
        },
      ],
      files,
      'No refused files.',
    )
  );
}

/**
 * Queues a refused file again: its kept copy goes back to `landing/<connection>/<source>/` under its name (the
 * `.refused-` copy there is removed) and its quarantine record is dropped; the next run lands it or refuses it again.
 * Returns the file's name; throws when the scope cannot see it or its copy is gone.
 */
export async function retryRefusedFile(ctx: PageContext, id: string): Promise<string> {
  const file = (await refusedFiles(ctx)).find((f) => f.id === id);
  if (!file)
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'file',
      reason: `no refused file ${id} among your connections`,
    });
  if (!existsSync(file.kept_at))
    throw new MktdataError('ERR_INPUT_INVALID', {
      where: 'file',
      reason: `its kept copy ${file.kept_at} is not on this machine`,
    });
  const folder = join(ctx.home.landing, file.connection_id, file.source);
  const target = join(folder, file.file_name);
  if (existsSync(target))
    throw new MktdataError('ERR_INPUT_INVALID', { where: 'file', reason: `${target} is already waiting to land` });
  mkdirSync(folder, { recursive: true });
  const partial = `${target}.partial`;
  copyFileSync(file.kept_at, partial);
  // The refused copy the landing left beside it holds the same bytes as the kept one; its sidecar goes with the file.
  const refused = join(folder, `.refused-${file.file_name}`);
  if (existsSync(sidecarOf(refused))) renameSync(sidecarOf(refused), sidecarOf(target));
  renameSync(partial, target);
  rmSync(refused, { force: true });
  await forgetQuarantinedFile(ctx.wh.db, id);
  return file.file_name;
}
