// Crash safety of `mktdata serve` with exports in flight: a client creates exports, serve is killed (SIGKILL) at a
// random point while they are written, and started again. Every export the client was answered 202 for must then
// complete once: listed, COMPLETED, its file downloadable with the rows an uninterrupted serve writes, no partial or
// extra file left in exports/, and the organization charged the tokens an uninterrupted serve charges.
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServe } from '../test/helpers/serve.ts';
import { demoConnections, dropDemoFiles, makeDemoHome, mktdata } from './homes.ts';

export interface CrashServeReport {
  trials: number;
  /** Exports answered 202 over all trials. */
  created: number;
  /** Of those, completed once with the uninterrupted rows. */
  whole: number;
  /** Trials whose exports/ held a partial or extra file, or whose token charge differed, after the restart. */
  leftovers: number;
  failures: string[];
}

const period = { from: '2026-01-01', to: '2026-12-31' };
/** The exports each trial creates: every order line of both sellers, as CSV, Parquet and JSON, whole and filtered. */
const requests = ['CSV', 'PARQUET', 'JSON'].flatMap((outputType) => [
  {
    sellerOrVendorIds: demoConnections.map((c) => c.id),
    tableName: 'mkt_order_items_with_cogs',
    outputType,
    ...period,
  },
  {
    sellerOrVendorIds: [demoConnections[0]!.id],
    tableName: 'mkt_profit_by_sku_and_date',
    outputType,
    ...period,
    filters: { rules: [{ field: 'profit', operator: '>', value: 0 }] },
  },
]);

interface Outcome {
  ids: string[];
  rows: Map<string, number>;
  tokens: number;
  files: string[];
}

async function api(base: string, key: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, {
    ...init,
    headers: { 'service-api-key': key, 'content-type': 'application/json' },
    redirect: 'manual',
  });
  const text = await res.text();
  return {
    status: res.status,
    location: res.headers.get('location'),
    body: text.startsWith('{') ? JSON.parse(text) : text,
  };
}

/** Waits until every export is finished; their row counts (by request index), the token balance and exports/. */
async function settle(home: string, key: string, ids: string[]): Promise<Outcome> {
  const server = await startServe(home, ['--no-pipelines', '--requests-per-second', '100']);
  try {
    const rows = new Map<string, number>();
    for (const [i, id] of ids.entries()) {
      for (const started = Date.now(); ; await sleep(200)) {
        const got = await api(server.base, key, `/exports/${id}`);
        if (got.status === 200 && got.body.status === 'COMPLETED') {
          const raw = await api(server.base, key, `/exports/${id}/raw`);
          const file = raw.location ? await fetch(raw.location) : null;
          rows.set(String(i), file?.status === 200 ? Number(got.body.rowCount) : -1);
          await file?.arrayBuffer();
          break;
        }
        if (got.status !== 200 || got.body.status === 'ERROR' || Date.now() - started > 120_000) {
          rows.set(String(i), -1);
          break;
        }
      }
    }
    const org = await api(server.base, key, '/util/organization');
    return { ids, rows, tokens: Number(org.body.tokenBalance), files: readdirSync(join(home, 'exports')).sort() };
  } finally {
    await server.stop();
  }
}

export async function crashServe(
  workDir: string,
  options: { trials: number; log: (line: string) => void },
): Promise<CrashServeReport> {
  const base = join(workDir, 'base');
  const org = await makeDemoHome(base);
  for (const c of demoConnections) dropDemoFiles(base, c);
  const first = await mktdata(['run', '--home', base]);
  if (first.code !== 0) throw new Error(`the demo run failed: ${first.stderr}`);
  const key = (await mktdata(['keys', 'create', '--org', org, '--home', base])).stdout.trim().split('\n').at(-1)!;

  /** Starts serve on a copy of the base home and creates the exports; kills it after `killAfterMs` (or not). */
  const trial = async (home: string, killAfterMs: number | null) => {
    rmSync(home, { recursive: true, force: true });
    cpSync(base, home, { recursive: true });
    const server = await startServe(home, ['--no-pipelines', '--requests-per-second', '100']);
    const ids: string[] = [];
    const started = Date.now();
    try {
      for (const request of requests) {
        const created = await api(server.base, key, '/exports', { method: 'POST', body: JSON.stringify(request) });
        if (created.status === 202) ids.push(created.body.id);
        else throw new Error(`POST /exports answered ${created.status}: ${JSON.stringify(created.body)}`);
      }
      if (killAfterMs !== null) {
        await sleep(Math.max(0, killAfterMs - (Date.now() - started)));
        server.child.kill('SIGKILL');
      }
    } finally {
      if (killAfterMs === null) {
        // Uninterrupted: the same serve finishes them (settle restarts it, as after a kill).
        for (const id of ids)
          while ((await api(server.base, key, `/exports/${id}`)).body.status !== 'COMPLETED') await sleep(100);
      }
      await server.stop();
    }
    return { ids, ms: Date.now() - started };
  };

  const reference = join(workDir, 'reference');
  const uninterrupted = await trial(reference, null);
  const expected = await settle(reference, key, uninterrupted.ids);
  options.log(
    `crash serve: ${requests.length} exports written in ${(uninterrupted.ms / 1000).toFixed(1)} s uninterrupted; killing serve ${options.trials} times while they are written`,
  );
  const report: CrashServeReport = { trials: options.trials, created: 0, whole: 0, leftovers: 0, failures: [] };
  for (let n = 1; n <= options.trials; n++) {
    const home = mkdtempSync(join(workDir, 'trial-'));
    const killAt = Math.random() * uninterrupted.ms;
    const { ids } = await trial(home, killAt);
    const after = await settle(home, key, ids);
    report.created += ids.length;
    const whole = [...after.rows].filter(([i, rows]) => rows >= 0 && rows === expected.rows.get(i)).length;
    report.whole += whole;
    const extra =
      JSON.stringify(after.files) !==
      JSON.stringify(
        ids
          .map((id, i) =>
            expected.files.find((f) => f.startsWith(uninterrupted.ids[i]!))!.replace(uninterrupted.ids[i]!, id),
          )
          .sort(),
      );
    const charged = expected.tokens !== after.tokens;
    if (extra || charged) report.leftovers++;
    if (whole < ids.length || extra || charged || ids.length < requests.length) {
      report.failures.push(
        `trial ${n} (killed at ${killAt.toFixed(0)} ms): ${whole} of ${ids.length} created exports whole; exports/ ${after.files.join(' ')}; tokens ${after.tokens} vs ${expected.tokens}`,
      );
      options.log(`    kept ${home}`);
    } else rmSync(home, { recursive: true, force: true });
    options.log(
      `  trial ${n}: killed at ${killAt.toFixed(0)} ms → ${whole} of ${ids.length} exports whole${extra ? ', EXTRA FILES' : ''}${charged ? ', TOKENS DIFFER' : ''}`,
    );
  }
  return report;
}
