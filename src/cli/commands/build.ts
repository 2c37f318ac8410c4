import type { Warehouse } from '../../db/warehouse.ts';
import { MktdataError } from '../../errors.ts';
import { runModels, type ModelResult, type RunOptions } from '../../models/run-models.ts';
import { publish, type PublishResult } from '../../publish/publish.ts';
import { progress } from '../output.ts';
import { quiet } from '../served.ts';

function printResult(r: ModelResult): void {
  if (r.status === 'success' && r.findings.length === 0 && quiet()) return;
  const mark = r.status === 'success' ? 'ok     ' : r.status === 'error' ? 'ERROR  ' : 'skipped';
  const detail = r.status === 'success' ? `${r.rows} rows, ${r.ms} ms` : r.error;
  console.log(`${mark} ${r.model}  ${detail}`);
  for (const f of r.findings)
    console.log(`        ${f.severity === 'warn' ? 'warn' : 'fail'}: ${f.name}: ${f.badRows} bad row(s)`);
}

/** Runs the models, publishes the snapshot and prints one line per model; throws when a model failed. */
export async function build(
  wh: Warehouse,
  options: RunOptions,
): Promise<{ results: ModelResult[]; published: PublishResult }> {
  let bar = progress('build', 0);
  const results = await runModels(wh, {
    ...options,
    onModel: (model, index, total) => {
      if (index === 0) bar = progress('build', total);
      bar.tick(model.id);
    },
    onResult: printResult,
  });
  bar.stop();
  const published = await publish(wh);
  console.log(`published ${published.tables.length} table(s) to ${published.path}`);
  const failed = results.filter((r) => r.status !== 'success');
  if (failed.length > 0) {
    throw new MktdataError('ERR_BUILD_FAILED', { count: failed.length, names: failed.map((r) => r.model).join(', ') });
  }
  return { results, published };
}
